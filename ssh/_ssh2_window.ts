/**
 * A larger SSH channel window for ssh2 (1.17.0). ssh2 offers every channel a fixed 2 MiB window and
 * tops it up once half is used, so at most 2 MiB is ever in flight: a pull is capped at 2 MiB per
 * round trip (~200 MB/s at 10 ms, ~40 MB/s at 50 ms). The window is a module constant of
 * `lib/Channel.js` that `lib/client.js` copies out of Channel.js's exports when it is first loaded,
 * so this module sets those exports before ssh2's client is loaded: ssh/_ssh2.ts imports it ahead of
 * `ssh2` (ES modules run in import order). `windowAdjust` is replaced too, because ssh2's own tops
 * the window up to its 2 MiB constant only. Measured through a relay adding 5 ms each way
 * (bench/ssh_pull.bench.ts): 100 MiB in ~1.3-1.6 s with 2 MiB, ~0.5-0.7 s with 8 or 16 MiB; no
 * change on plain loopback.
 *
 * The packet size stays at ssh2's 32 KiB: its decryptors refuse packets over 35,000 bytes (a
 * constant of lib/protocol/crypto.js that is not exported).
 *
 * tests/ssh/pull_large.test.ts checks against a real sshd that a channel really gets this window.
 *
 * @module
 */
// A CommonJS module of ssh2 without types: only the fields below are touched.
import channelModule from "ssh2/lib/Channel.js";

/** The receive window offered on every channel, and the level below which it is topped up. */
export const CHANNEL_WINDOW = 16 << 20;
const WINDOW_THRESHOLD = CHANNEL_WINDOW / 2;

/** The fields of ssh2's channel state this module uses. */
interface ChannelState {
  outgoing: { state: string; id: number };
  incoming: { window: number };
  _client: { _protocol: { channelWindowAdjust(id: number, amount: number): void } };
}

interface ChannelExports {
  MAX_WINDOW: number;
  WINDOW_THRESHOLD: number;
  windowAdjust: (channel: ChannelState) => void;
}

const exportsOfChannel = channelModule as unknown as ChannelExports;
exportsOfChannel.MAX_WINDOW = CHANNEL_WINDOW;
exportsOfChannel.WINDOW_THRESHOLD = WINDOW_THRESHOLD;
// ssh2's windowAdjust with this module's window.
exportsOfChannel.windowAdjust = (channel: ChannelState) => {
  if (channel.outgoing.state === "closed") return;
  const amount = CHANNEL_WINDOW - channel.incoming.window;
  if (amount <= 0) return;
  channel.incoming.window += amount;
  channel._client._protocol.channelWindowAdjust(channel.outgoing.id, amount);
};
