/**
 * The memory of a Node.js process started with --inspect=127.0.0.1:<port>, after a full collection: asks its
 * inspector (Chrome DevTools Protocol) to collect garbage, then for process.memoryUsage(), and prints that as one
 * JSON line. Run with --experimental-websocket on Node.js 20 (WebSocket is global from Node.js 22).
 */
const port = Number(process.argv[2]);
const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
  webSocketDebuggerUrl: string;
}[];
if (!target) throw new Error(`no inspector target on port ${port}`);
const socket = new WebSocket(target.webSocketDebuggerUrl);
await new Promise((resolve, reject) => {
  socket.addEventListener('open', resolve, { once: true });
  socket.addEventListener('error', reject, { once: true });
});
let nextId = 0;
interface Answer {
  id?: number;
  result?: { result?: { value?: unknown } };
}
function call(method: string, params: Record<string, unknown> = {}): Promise<Answer> {
  const id = (nextId += 1);
  return new Promise((resolve) => {
    const onMessage = (event: MessageEvent) => {
      const message = JSON.parse(String(event.data)) as Answer;
      if (message.id !== id) return;
      socket.removeEventListener('message', onMessage);
      resolve(message);
    };
    socket.addEventListener('message', onMessage);
    socket.send(JSON.stringify({ id, method, params }));
  });
}
await call('HeapProfiler.collectGarbage');
const answer = await call('Runtime.evaluate', {
  expression: 'JSON.stringify(process.memoryUsage())',
  returnByValue: true,
});
process.stdout.write(`${String(answer.result?.result?.value)}\n`);
socket.close();
