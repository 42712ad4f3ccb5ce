/** Mail as the outbox keeps it until it is sent: its body sealed, so that a database dump shows no link. */

/** A message to send, written in the commit of the change that causes it. */
export interface NewOutboxMessage {
  kind: string;
  recipient: string;
  language: string;
  subject: string;
  sealedBody: string;
}
