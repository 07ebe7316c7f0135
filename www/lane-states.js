// Curator's connection states on a client's lane (ZooKeeper): SUSPENDED from the moment the client has
// heard nothing from the server for two thirds of the session timeout, LOST from when Curator takes the
// session as gone, each a band in the row under the lane line (where a pause's block goes; a frozen
// client changes no state) until the next change — RECONNECTED ends it — or the end of the run. Read
// from the trace's `suspended`, `lost` and `reconnected` events alone. Pure: no DOM.

const STATES = { suspended: 'suspended', lost: 'lost', reconnected: null };

/** The bands of `run`: [{ client, state, from, to }], in the order they begin; none of zero length. */
export function connectionSpans(run) {
  const open = {};
  const spans = [];
  const close = (client, t) => {
    const s = open[client];
    if (s && t > s.from) spans.push({ ...s, to: t });
    delete open[client];
  };
  for (const e of run.events) {
    if (!Object.hasOwn(STATES, e.kind)) continue;
    close(e.actor, e.t_ms);
    if (STATES[e.kind]) open[e.actor] = { client: e.actor, state: STATES[e.kind], from: e.t_ms };
  }
  for (const client in open) close(client, run.end_ms);
  return spans.sort((a, b) => a.from - b.from);
}

/**
 * Draws the bands with `bar(lane, from, to, top, height, cls, labels)` (the layout's bars: the first
 * label that fits goes inside), each labelled with Curator's name for the state and what it means.
 */
export function connectionBands(run, c, lanes, bar) {
  const { d, narrow } = c;
  const spans = connectionSpans(run);
  for (const s of spans) {
    const lane = lanes[s.client];
    if (!lane) continue;
    const long = s.state === 'suspended' ? d.suspendedBand : d.lostBand;
    const short = s.state === 'suspended' ? 'SUSPENDED' : 'LOST';
    bar(lane, s.from, s.to, 3, 14, `conn ${s.state}`, narrow ? [short, ''] : [long, short, '']);
  }
  return spans;
}
