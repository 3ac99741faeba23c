/**
 * Splits what PGlite answers a wire-protocol client into backend messages (a
 * type byte, then a length that counts itself) as they stream, to take out the
 * notifications and see where an exchange ends.
 */

const notificationResponse = "A".charCodeAt(0);
const readyForQuery = "Z".charCodeAt(0);
const idle = "I".charCodeAt(0);

export interface Notification {
  channel: string;
  payload: string;
}

export class BackendMessages {
  private pending = Buffer.alloc(0);
  private lastWasIdle = false;
  readonly notifications: Notification[] = [];

  /** The bytes to pass on to the client: every complete message but the notifications. */
  push(data: Uint8Array): Buffer {
    this.pending = this.pending.length ? Buffer.concat([this.pending, data]) : Buffer.from(data);
    const kept: Buffer[] = [];
    let offset = 0;
    while (this.pending.length - offset >= 5) {
      const size = 1 + this.pending.readInt32BE(offset + 1);
      if (this.pending.length - offset < size) break;
      const message = this.pending.subarray(offset, offset + size);
      const type = message[0];
      if (type === notificationResponse) this.notifications.push(parseNotification(message));
      else kept.push(message);
      this.lastWasIdle = type === readyForQuery && message[5] === idle;
      offset += size;
    }
    this.pending = this.pending.subarray(offset);
    return Buffer.concat(kept);
  }

  /** Whether the answer so far ends with ReadyForQuery('I'): idle, outside a transaction. */
  get endsIdle(): boolean {
    return this.lastWasIdle && this.pending.length === 0;
  }

  /** Hands over the notifications seen since the last call. */
  takeNotifications(): Notification[] {
    return this.notifications.splice(0);
  }
}

/** NotificationResponse: process id (int32), channel and payload (C strings). */
function parseNotification(message: Buffer): Notification {
  const channelStart = 9;
  const channelEnd = message.indexOf(0, channelStart);
  const payloadEnd = message.indexOf(0, channelEnd + 1);
  return {
    channel: message.toString("utf8", channelStart, channelEnd),
    payload: message.toString("utf8", channelEnd + 1, payloadEnd),
  };
}
