/**
 * Answers a text as the phone would: `npm run sms:reply -- +33612345678 STOP` puts the reply into the SMSC's
 * replies/ folder, and the SMSC (of `npm start`, or the compose service: `docker compose exec smsc node
 * dist/smsc/reply.js +33612345678 STOP`) sends it to the bound worker within a second. The folder: SMSC_DIR, else
 * DATA_DIR/sms, else .data/sms.
 */
import path from 'node:path';
import { setting } from '../server-shared/settings.js';
import { dropReply, parseReply, replyFile } from './folder.js';

const [from = '', ...words] = process.argv.slice(2);
const text = words.join(' ');
if (!parseReply(replyFile(from, text))) {
  console.error('Usage: npm run sms:reply -- <the phone, e.g. +33612345678> <words, e.g. STOP>');
  process.exit(2);
}
const dir =
  setting(process.env, 'SMSC_DIR') ?? path.join(path.resolve(setting(process.env, 'DATA_DIR') ?? '.data'), 'sms');
const file = await dropReply(dir, from, text);
process.stdout.write(
  `Reply from ${from} put in ${path.relative(process.cwd(), file) || file}; the SMSC sends it on.\n`,
);
