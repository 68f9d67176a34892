export interface CaughtMail {
  id: string;
  subject: string;
  text?: string;
  to: { address: string; name?: string }[];
  from: { address: string; name?: string }[];
  /** The file MailDev keeps the message in, as it was sent. */
  source?: string;
}

export interface MailCatcher {
  smtpUrl: string;
  inboxUrl: string;
  messages(): Promise<CaughtMail[]>;
  stop(): Promise<void>;
}

export declare function startMailCatcher(options?: { smtpPort?: number; webPort?: number }): Promise<MailCatcher>;
