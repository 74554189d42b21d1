import type { Envelope } from './envelope.ts';

/** A person's reading of a delivery: a sentence and where to look in the console. */
export interface Message {
  sentence: string;
  /** Absolute URL in the console, or null when nothing is left to look at. */
  link: string | null;
}

export type DescribeEnvelope = (envelope: Envelope) => Promise<Message>;

export function slackBody({ sentence, link }: Message): string {
  return JSON.stringify({ text: link ? `${sentence} <${link}|Open in Wharf>` : sentence });
}

export function mattermostBody({ sentence, link }: Message): string {
  return JSON.stringify({ text: link ? `${sentence} [Open in Wharf](${link})` : sentence });
}

export function mailOf(message: Message, envelope: Envelope) {
  const lines = [message.sentence, '', ...(message.link ? [`Open in Wharf: ${message.link}`, ''] : [])];
  const details = JSON.stringify(envelope, null, 2);
  return {
    subject: `[Wharf] ${message.sentence}`,
    text: `${lines.join('\n')}Event ${envelope.event} at ${envelope.createdAt}\n\n${details}\n`,
  };
}
