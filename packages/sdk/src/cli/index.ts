import { main } from './main.js';

// Entry point of the `ferry` bundle (dist/cli.js, loaded by bin/ferry.js).
// stderr is for our own one-line messages: tus-js-client's use of url.parse() is deprecated on newer Node lines.
if (process.env.FERRY_DEBUG !== '1') process.noDeprecation = true;
const controller = new AbortController();
const interrupt = () => {
  // A second Ctrl-C does not wait for the uploads to stop.
  if (controller.signal.aborted) process.exit(130);
  controller.abort(new Error('interrupted'));
};
process.on('SIGINT', interrupt);
process.on('SIGTERM', interrupt);
// `ferry get … | head -1` closes stdout early: that is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
});

const code = await main(process.argv, {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
  // Only touched when an answer is needed: opening stdin early could hold the process open.
  get stdin() {
    return process.stdin;
  },
});
process.exitCode = code;
// Idle keep-alive sockets must not hold the process open once the work is done.
setTimeout(() => process.exit(code), 500).unref();
