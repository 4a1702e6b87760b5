/** Error text for messages, without VS Code. */

/** The message of `error`, prefixed `ripplegraph: ` unless the server already named itself. */
export function errorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);
  return /^ripple(graph)?:/.test(text) ? text : `ripplegraph: ${text}`;
}
