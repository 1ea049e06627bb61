// RMSNorm computations ('lab' requests) on named channels: the lab view asks on
// one, every lesson widget on its own. A newer request on a channel makes that
// channel's older ones stale; other channels are not touched.
//
// The core client supersedes by request kind alone (a second 'lab' request
// would drop the first one's result whoever sent it), so lab requests go to it
// one at a time here, and a request whose channel has moved on by its turn is
// skipped without reaching the worker: a moving slider never builds a queue.
import type { Outcome } from './coreClient';
import type { CoreApi, LabInput } from './protocol';

export interface LabRequester {
  request(kind: 'lab', payload: CoreApi['lab']['request']): Promise<Outcome<'lab'>>;
}

export class LabChannels {
  private chain: Promise<unknown> = Promise.resolve();
  private readonly newest = new Map<string, number>();
  private counter = 0;

  constructor(private readonly client: LabRequester) {}

  ask(channel: string, settings: LabInput): Promise<Outcome<'lab'>> {
    const id = ++this.counter;
    this.newest.set(channel, id);
    const mine = this.chain.then(async (): Promise<Outcome<'lab'>> => {
      if (this.newest.get(channel) !== id) return { status: 'stale' };
      const o = await this.client.request('lab', settings);
      if (this.newest.get(channel) !== id) return { status: 'stale' };
      return o;
    });
    this.chain = mine.catch(() => undefined);
    return mine;
  }
}
