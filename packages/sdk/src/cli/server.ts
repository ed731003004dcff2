export const DEFAULT_SERVER = 'http://localhost:8080';

/** The server of a command: --server, else $FERRY_SERVER, else http://localhost:8080. */
export function resolveServer(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag || env.FERRY_SERVER || DEFAULT_SERVER;
}
