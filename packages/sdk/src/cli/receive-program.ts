import { type Command, InvalidArgumentError, Option } from 'commander';
import type { CredentialContext } from './auth.js';
import type { CliIO } from './io.js';
import { runInboxCreate, runInboxList, runInboxSwitch, runRequest } from './request.js';
import { collectEmails, emailAddress, environmentLanguage, languageTag } from './send-options.js';
import { resolveServer } from './server.js';
import { runUploadTo } from './upload-to.js';

/** Receiving files (S3): `ferry request`, `ferry upload-to` and `ferry inbox list|create|enable|disable`. */

interface Deps {
  io: CliIO;
  context: { server?: string; credential?: CredentialContext };
  retryForMs: (env: NodeJS.ProcessEnv) => number;
}

function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value)))
    throw new InvalidArgumentError('expected a whole number of 1 or more.');
  return Number(value);
}

/** "pdf,.docx" and repeats → ["pdf", "docx"]. */
function collectExtensions(value: string, previous: string[] | undefined): string[] {
  const more = value
    .split(',')
    .map((e) => e.trim().replace(/^\.+/, '').toLowerCase())
    .filter(Boolean);
  for (const e of more)
    if (!/^[a-z0-9][a-z0-9._+-]{0,19}$/.test(e)) throw new InvalidArgumentError(`not a file extension: ${e}`);
  return [...(previous ?? []), ...more];
}

/** `id=answer` → { id: answer }. */
function collectAnswers(value: string, previous: Record<string, string> | undefined): Record<string, string> {
  const eq = value.indexOf('=');
  if (eq < 1) throw new InvalidArgumentError('expected QUESTION_ID=ANSWER.');
  return { ...previous, [value.slice(0, eq).trim()]: value.slice(eq + 1) };
}

const serverOption = () =>
  new Option('-s, --server <url>', 'Ferry server (default: $FERRY_SERVER, else http://localhost:8080)');

const SIGNED_IN_EXIT_CODES =
  '\nExit codes: 0 done; 2 not signed in ("run ferry login") or the session has ended; 3 no such inbox among\n' +
  '  yours; 1 anything else (a setting of your account or team refuses it, a custom id or inbox name taken).\n';

export function addReceiveCommands(program: Command, { io, context, retryForMs }: Deps): void {
  program
    .command('request')
    .summary('ask people for files: print the link they upload through (or e-mail it with --to)')
    .description(
      'Open a file request in your account (ferry login first) and print its upload link (the only line on ' +
        'stdout). Anyone with the link can upload files into your account; they appear among your transfers ' +
        'as received (S3), and you get an e-mail for each upload.\n\n' +
        'With --to, each address gets its own upload link by e-mail, and is reminded before the request ' +
        'expires if it has not uploaded yet. The request lasts 21 days on a paid plan, 7 otherwise, unless ' +
        '--expires-in-days says otherwise (at most what your plan allows).',
    )
    .addOption(serverOption())
    .option(
      '--to <email>',
      'ask this person by e-mail (repeat it, or separate addresses with commas)',
      collectEmails,
    )
    .option('--subject <text>', 'what you ask for (the title of the upload page and of the e-mails)')
    .option('-m, --message <text>', 'message shown on the upload page and in the e-mails')
    .option('-p, --password <password>', 'uploaders must give this password')
    .option('--expires-in-days <n>', 'keep the request open for n days', positiveInteger)
    .option('--sender-name <name>', 'your name, as uploaders see it')
    .option('--custom-id <id>', 'the end of the link (https://host/r/<id>) instead of a random one')
    .option(
      '--allow <ext>',
      'accept only files ending in these extensions (repeat or comma-separate)',
      collectExtensions,
    )
    .option('--no-notify-uploads', 'no e-mail to you when someone uploads')
    .option('--no-reminder', 'do not remind the people asked (--to) before the request expires')
    .option(
      '--lang <tag>',
      'language of the e-mails, e.g. fr (default: from LC_ALL, LC_MESSAGES or LANG)',
      languageTag,
    )
    .option('-q, --quiet', 'no info line on stderr')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  link=$(ferry request --subject "Your signed contract" --allow pdf)\n' +
        '  ferry request --to bob@example.com,carol@example.com --subject "Photos of the event"\n' +
        SIGNED_IN_EXIT_CODES,
    )
    .action(async (opts) => {
      const server = resolveServer(opts.server, io.env);
      context.server = server;
      await runRequest({ ...opts, lang: opts.lang ?? environmentLanguage(io.env) }, io, {
        server,
        context,
        retryForMs: retryForMs(io.env),
      });
    });

  program
    .command('upload-to')
    .summary('upload files into a file request, an upload inbox or a widget; print the receipt')
    .description(
      "Upload files and folders into someone's file request (https://host/r/<id>, or a personal link from an " +
        'e-mail: quote it in the shell), upload inbox (https://host/i/<name>), widget (https://host/widgets/<id>) ' +
        'or account (https://host/push?to=<e-mail>). No account is needed.\n\n' +
        'The receipt is printed on stdout: one "sha256  path" line per file, as sha256sum writes them, checked by ' +
        "the server against what it received. The files are the recipient's: you get no download link.\n\n" +
        'Interrupted? Run the same command again: it continues the same upload.',
    )
    .argument('<link>', 'the upload link')
    .argument('<path...>', 'files and folders to upload')
    .option('-p, --password <password>', 'password of a protected request or inbox')
    .option('-n, --name <name>', 'your name, for the recipient')
    .option(
      '--email <address>',
      'your e-mail address (some inboxes require it, and e-mail you a receipt)',
      emailAddress,
    )
    .option('-m, --message <text>', 'a message for the recipient')
    .option('--answer <id=answer>', "answer to one of the form's questions (repeat it)", collectAnswers)
    .option('--lang <tag>', 'language of your receipt e-mail, e.g. fr', languageTag)
    .option('-q, --quiet', 'no progress or info lines on stderr (warnings and errors still)')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  ferry upload-to https://ferry.example.com/r/AbCdEfGh12345678 contract.pdf --name "Bob Martin"\n' +
        '  ferry upload-to https://ferry.example.com/i/acme-invoices invoices/ --email bob@example.com\n' +
        '\nExit codes: 0 delivered; 2 a password is needed or wrong; 3 no such request or inbox, or it is closed\n' +
        '  or expired; 1 anything else (a file type the page refuses, a field it requires, a limit).\n',
    )
    .action(async (link: string, paths: string[], opts) => {
      context.server = URL.canParse(link) ? new URL(link).origin : undefined;
      await runUploadTo(
        link,
        paths,
        { ...opts, lang: opts.lang ?? environmentLanguage(io.env), retryForMs: retryForMs(io.env) },
        io,
      );
    });

  const inbox = program
    .command('inbox')
    .summary('your upload inboxes: list, create, enable, disable')
    .description('Manage the upload inboxes of the account "ferry login" signed in to the server.');
  const ctx = (opts: { server?: string }) => {
    const server = resolveServer(opts.server, io.env);
    context.server = server;
    return { server, context, retryForMs: retryForMs(io.env) };
  };
  inbox
    .command('list')
    .description('one tab-separated line per inbox: name, on/off, S1/S2, uploads, link, title')
    .addOption(serverOption())
    .option('--json', 'print the inboxes as JSON')
    .addHelpText('after', SIGNED_IN_EXIT_CODES)
    .action(async (opts) => runInboxList(opts, io, ctx(opts)));
  inbox
    .command('create')
    .description('create an inbox at https://host/i/<name>; prints its link')
    .argument('<name>', '3 to 40 letters, digits or hyphens')
    .addOption(serverOption())
    .option('--title <text>', 'the title uploaders see (default: the name)')
    .option('--s1', 'uploaders must give their e-mail address, and get a receipt by e-mail')
    .option('-p, --password <password>', 'uploaders must give this password')
    .option('--allow <ext>', 'accept only these extensions (repeat or comma-separate)', collectExtensions)
    .option('--off', 'create it switched off')
    .addHelpText('after', SIGNED_IN_EXIT_CODES)
    .action(async (name: string, opts) => runInboxCreate(name, opts, io, ctx(opts)));
  for (const [command, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const)
    inbox
      .command(command)
      .description(`switch an inbox ${enabled ? 'on' : 'off'}`)
      .argument('<name>', "the inbox's name (or id)")
      .addOption(serverOption())
      .addHelpText('after', SIGNED_IN_EXIT_CODES)
      .action(async (name: string, opts) => runInboxSwitch(name, enabled, io, ctx(opts)));
}
