/** Polls `read` every 50 ms until it gives a value; fails naming `what` after `timeoutMs`. */
export async function until<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 15000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
