// The diagram's text alternative (its SVG <desc>): which lanes there are, top to bottom, and — for
// etcd and ZooKeeper — what the marks of their own mean (the keepalive or ping ticks, the queue of
// waiters, Curator's connection states). The events table under the diagram says it all as text too.

/** The description of `run`'s diagram in dictionary `d`. */
export function diagramDesc(run, d) {
  const extra = run.nodes > 1 ? '' : run.service === 'etcd' ? d.svgDescEtcd : run.service === 'zookeeper' ? d.svgDescZk : '';
  return extra ? `${d.svgDesc} ${extra}` : d.svgDesc;
}
