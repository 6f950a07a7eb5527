/**
 * The SMSC's folder, where a developer sees the texts and answers as the phone: each text submitted is written as
 * one file (headers, a blank line, the words), like the mail sink's .eml files; a file put into `replies/` (by
 * `npm run sms:reply`, or by hand) is sent to the bound worker as a message from that phone, then removed.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { startSmsc, type Smsc, type SmscOptions, type SubmittedText } from './server.js';

export const REPLIES_FOLDER = 'replies';

/** GSM 03.38's extension table: each of these takes two septets (an escape, then the character). */
const GSM_EXTENDED = /[\^{}\\[~\]|€\f]/g;

/** How the networks count a text's parts (SMPP 3.4 leaves the split of a message_payload to the SMSC). */
export function partsOf(text: SubmittedText): { encoding: string; units: string; parts: number } {
  const split = (units: number, single: number, each: number) => (units <= single ? 1 : Math.ceil(units / each));
  if (text.dataCoding === 8) {
    const units = text.text.length;
    return { encoding: 'UCS-2', units: `${units} UTF-16 units`, parts: split(units, 70, 67) };
  }
  if (text.dataCoding === 3) {
    const bytes = text.text.length;
    return { encoding: 'Latin-1', units: `${bytes} bytes`, parts: split(bytes, 140, 134) };
  }
  const septets = text.text.length + (text.text.match(GSM_EXTENDED)?.length ?? 0);
  return { encoding: 'GSM-7', units: `${septets} septets`, parts: split(septets, 160, 153) };
}

/** The file of one text: headers a person reads at a glance, then the words as the phone shows them. */
export function textFile(text: SubmittedText): string {
  const { encoding, units, parts } = partsOf(text);
  return [
    `Message-Id: ${text.messageId}`,
    `Date: ${text.submittedAt.toISOString()}`,
    `From: ${text.from}`,
    `To: ${text.to}`,
    `Encoding: ${encoding} (data_coding ${text.dataCoding}), ${units}, ${parts} part${parts === 1 ? '' : 's'}` +
      (text.payload ? ' (sent as message_payload)' : ''),
    `Receipt: ${text.receipt ? 'requested' : 'not requested'}`,
    '',
    text.text,
    '',
  ].join('\n');
}

/** A name sorted by arrival in a listing; the message id keeps two texts of one millisecond apart. */
const fileName = (text: SubmittedText) =>
  `${text.submittedAt.toISOString().replace(/[:.]/g, '-')}-${text.messageId}.txt`;

/** Writes the text's file under a hidden name and renames it when whole: a listing never shows half a text. */
export async function writeText(dir: string, text: SubmittedText): Promise<string> {
  const file = path.join(dir, fileName(text));
  const partial = path.join(dir, `.${path.basename(file)}.part`);
  try {
    await writeFile(partial, textFile(text));
    await rename(partial, file);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
  return file;
}

/** A reply's file: `From: <number>`, a blank line, then the words (as `npm run sms:reply` writes it). */
export function replyFile(from: string, words: string): string {
  return `From: ${from}\n\n${words}\n`;
}

export function parseReply(content: string): { from: string; text: string } | undefined {
  const match = /^From:[ \t]*(\+?[0-9]{3,15})[ \t]*\r?\n\r?\n([\s\S]*)$/i.exec(content);
  const text = match?.[2]?.trim();
  return match && text ? { from: match[1]!, text } : undefined;
}

/** Puts a reply into the folder, as the SMSC reads it: under a hidden name, renamed when whole. */
export async function dropReply(dir: string, from: string, words: string): Promise<string> {
  const replies = path.join(dir, REPLIES_FOLDER);
  await mkdir(replies, { recursive: true });
  const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}.txt`;
  const partial = path.join(replies, `.${name}.part`);
  await writeFile(partial, replyFile(from, words));
  await rename(partial, path.join(replies, name));
  return path.join(replies, name);
}

export interface RepliesWatch {
  close(): void;
}

/**
 * Reads `replies/` every `everyMs`: each file (hidden ones are still being written) is sent with `send`; once the
 * worker took it (status 0) it is removed, otherwise it waits for a later round. One that is still not a reply two
 * seconds after it was last written is renamed `.invalid`, and left.
 */
export function watchReplies(options: {
  dir: string;
  send: (from: string, text: string) => Promise<number>;
  logger?: Logger;
  everyMs?: number;
}): RepliesWatch {
  const replies = path.join(options.dir, REPLIES_FOLDER);
  const log = options.logger;
  /** Files that waited, said once each. */
  const waiting = new Set<string>();
  let running = false;
  const round = async () => {
    if (running) return;
    running = true;
    try {
      const names = (await readdir(replies).catch(() => [] as string[]))
        .filter((name) => !name.startsWith('.') && !name.endsWith('.invalid'))
        .sort();
      for (const name of names) {
        const file = path.join(replies, name);
        const reply = parseReply(await readFile(file, 'utf8').catch(() => ''));
        // A file written in place (not renamed in) may be read before it is whole: it gets a moment.
        const young = Date.now() - ((await stat(file).catch(() => undefined))?.mtimeMs ?? 0) < 2000;
        if (!reply && young) continue;
        if (!reply) {
          log?.warn({ file: name }, 'not a reply (want "From: +number", a blank line, the words); renamed .invalid');
          await rename(file, `${file}.invalid`).catch(() => {});
          continue;
        }
        const status = await options.send(reply.from, reply.text).catch(() => undefined);
        if (status === 0) {
          await rm(file, { force: true });
          waiting.delete(name);
          log?.info({ file: name }, 'reply from the phone taken by the worker');
        } else if (!waiting.has(name)) {
          waiting.add(name);
          log?.warn(
            { file: name, status },
            status === undefined ? 'reply waits for a bound worker' : 'the worker refused the reply for now',
          );
        }
      }
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void round(), options.everyMs ?? 500);
  return { close: () => clearInterval(timer) };
}

export interface FolderSmsc extends Smsc {
  dir: string;
}

/**
 * The SMSC of `npm start` and of the compose service: every text written to `dir`, a DELIVRD receipt a moment after
 * each that asks for one, and `dir/replies/` read for messages from a phone. `display` names a file in log lines.
 */
export async function startFolderSmsc(
  options: Omit<SmscOptions, 'onText'> & { dir: string; display?: (file: string) => string },
): Promise<FolderSmsc> {
  const { dir, display = (file: string) => file, ...server } = options;
  await mkdir(path.join(dir, REPLIES_FOLDER), { recursive: true });
  const smsc = await startSmsc({
    ...server,
    onText: async (text) => {
      const file = await writeText(dir, text);
      options.logger?.info({ file: display(file), messageId: text.messageId }, 'text saved');
    },
  });
  const replies = watchReplies({ dir, send: smsc.sendMessage, ...(options.logger ? { logger: options.logger } : {}) });
  return {
    ...smsc,
    dir,
    async stop() {
      replies.close();
      await smsc.stop();
    },
  };
}
