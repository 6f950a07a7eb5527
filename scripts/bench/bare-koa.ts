/**
 * The bench's baseline: a bare Koa server with the same body parser, answering each measured route with the JSON
 * the real API gave for it (read from BARE_ANSWERS, a JSON object of "METHOD path" → { status, body, headers }).
 * Whatever the API does beyond this (validation, rules, the database, the queue, logging, headers) is what the ratio
 * measures. With BARE_SEND_HEADERS=1 it also sends the headers the API sent with that answer (its security headers,
 * request id, Cache-Control, Vary), so that a second run tells what their bytes cost on shared cores from what the
 * API's own work costs. Prints its port on stdout once listening.
 */
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';

const answers = JSON.parse(process.env.BARE_ANSWERS ?? '{}') as Record<
  string,
  { status: number; body: unknown; headers: Record<string, string> }
>;
const sendHeaders = process.env.BARE_SEND_HEADERS === '1';
const app = new Koa();
app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '16kb' }));
app.use((ctx) => {
  const answer = answers[`${ctx.method} ${ctx.path}`];
  if (!answer) {
    ctx.status = 404;
    return;
  }
  if (sendHeaders) ctx.set(answer.headers);
  ctx.status = answer.status;
  ctx.body = answer.body;
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
server.keepAliveTimeout = 5000;
process.once('SIGTERM', () => server.close(() => process.exit(0)));
