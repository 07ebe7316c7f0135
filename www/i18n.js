// Every string the lab shows. English is built in; every other language is a module of its own in
// i18n/ (the same keys; missing ones fall back to English), loaded only when a reader asks for it, with
// the scenario texts the build writes next to the wasm (pkg/scenarios.<lang>.json). Adding a language
// is adding i18n/<code>.js and one line to `languages` below. {name} placeholders are filled by fmt().
// The transcript stays in the seed's (English) format on purpose. A lock service's words beyond the
// core's, and the client libraries', arrive when a run needs them: i18n-loads.js.

import { isObject, libraryWordsSettled, loadLibraryWordsIn, loadServiceWords, serviceWordsSettled, withWordsLoaded } from './i18n-loads.js';

export { loadServiceWords, serviceWordsSettled, withServiceWords } from './i18n-loads.js';

const en = {
  langName: 'English',
  docTitle: 'leaselab — why a lock alone does not protect your data',
  h1: 'leaselab',
  lede: 'Two clients share one lock. A holds a lease, freezes longer than the lease lasts, and B takes the lock — the diagram shows, step by step, whether A’s late write silently destroys B’s.',
  exploreLink: 'Explore the parameter space: where the lost update lives, and how often →',
  learnLink: 'New to leases? Eight short lessons: predict, then watch the run →',
  authorLink: 'Your own system? Write its scenario and watch it run →',
  matrixLink: 'Which lock, which fence? The safety table: every lock service under every fault →',
  language: 'Language',
  loading: 'Loading the simulation…',
  loadError: 'The simulation could not load: {msg}',
  dismiss: 'Dismiss',
  noticeTitle: 'Some settings in the address were not usable:',
  noticeTitleEmbed: 'Some attributes of this lab were not usable:',
  // A <lease-lab> with a scenario of its own (user-scenario.js): what went wrong, shown in the element.
  scenarioUnavailable: 'This lab’s scenario could not be read:',
  scenarioBadSrc: 'src="{url}" is not a usable address.',
  scenarioFetchFailed: '{url} could not be fetched ({why}): the network failed, or that server does not allow this page to read it (CORS).',
  scenarioHttpError: '{url} could not be fetched: HTTP {status}.',
  scenarioErrors: 'This lab’s scenario does not parse:',
  scenarioErrorAt: 'line {line}, column {col}: {msg}',
  scenarioDoesNotRun: 'This lab’s scenario does not run:',

  settings: 'Settings',
  scenario: 'Scenario',
  groups: { seed: 'The seed', kleppmann: 'Kleppmann’s cases', antirez: 'antirez’s replies', postgres: 'PostgreSQL', networks: 'Networks', services: 'Lock services', clocks: 'Clocks', etcd: 'etcd', zookeeper: 'ZooKeeper', storage: 'Storage that fences', hazelcast: 'Hazelcast', kubernetes: 'Kubernetes', consul: 'Consul', dynamodb: 'DynamoDB', mysql: 'MySQL', libraries: 'Client libraries' },
  ttl: 'TTL (lease length)',
  pause: 'Pause',
  pauseAsDelay: 'Pause (here: network delay of A’s write)',
  extraLegend: 'More settings of this scenario',
  ttlOff: 'TTL (none: a session lock)',
  noteNoTtl: 'A PostgreSQL advisory lock has no TTL: it is held until the holder unlocks or its session ends.',
  ttlFixed: 'TTL (fixed in this scenario)',
  noteTtlFixed: 'This scenario sets its lease’s TTL itself; its other settings are below.',
  pauseOff: 'Pause (not in this scenario)',
  noteNoPause: 'Nothing freezes in this scenario, so the Pause slider is off.',
  noteDelay: 'Nothing freezes here: the network holds A’s write instead, and this slider sets for how long. A delayed packet is a pause by another name.',
  fencing: 'Fencing (what the storage checks)',
  policies: {
    none: 'none (last write wins)',
    token: 'token (the seed’s fenced mode)',
    'first-touch': 'first-touch (tokens checked on reads too)',
    version: 'version (compare-and-set; GCS’s generation)',
    etag: 'etag (S3’s If-Match on the content’s ETag)',
    owner: 'owner (antirez’s check-and-set)',
    'equal-token': 'equal-token (etcd’s contrib/lock: only the first token written)',
  },
  copyLink: 'Copy link to this state',
  exportAs: 'Export:',
  shareTitle: 'Share and export',
  exportTranscript: 'transcript',
  copied: 'Link copied.',
  copyByHand: 'Copy the link from the field.',
  copyEmbed: 'Copy embed snippet',
  copyIframe: 'Copy iframe snippet',
  snippetCopied: 'Snippet copied.',
  copySnippetByHand: 'Copy the snippet from the field.',
  shareField: 'Link or snippet to copy',
  exported: 'Exported {kind}.',
  retriesLabel: 'A refused client starts over (re-acquires, re-reads, redoes its work)',
  reset: 'Reset',
  marginTitle: 'Safety margin: which assumption broke',
  marginShort: 'Safety margin',
  marginLate: '{c}’s write landed at {t} ms, {late} ms after its lease ended (TTL {ttl} ms, from {from} to {end} ms).',
  // A hold with no TTL setting of its own (a session timeout, an expiry at a tick).
  marginLateUntil: '{c}’s write landed at {t} ms, {late} ms after its hold ended (from {from} to {end} ms).',
  marginSession: '{c}’s write landed at {t} ms, {late} ms after its session ended at {end} ms.',
  marginStale: '{c}’s write landed at {t} ms inside its lease by the lock service’s clock, but another client already held the lock.',
  marginBecause: 'What broke: {causes}.',
  marginAnd: '; ',
  marginPause: '{c} frozen for {dur} ms (assumed: pauses are shorter than the TTL)',
  marginHeld: 'the network holding the write for {dur} ms (assumed: bounded network delay)',
  marginClock: '{c}’s own clock, which said {left} ms were left at {t} ms, {over} ms after the lease had ended (assumed: bounded clock drift)',
  marginOk: 'Every write landed inside its writer’s lease: no timing assumption broke.',
  marginNoTtl: 'A session lock has no TTL: no write can outlive its lease, only its session.',
  marginNeverHeld: '{c}’s write landed at {t} ms, but {c} never held the lock: its lease had expired while it waited, and the lock service told it otherwise.',
  compareTitle: 'Side by side: the same schedule under another fencing policy',
  compareWith: 'Compare with',
  compareVerdict: 'With {policy}: {word}, final {final} · expected {expected}. {same}',
  compareSame: 'The two runs are identical.',
  diverge: 'runs diverge at {t} ms',
  ms: 'ms',
  s: 's',

  verdict: 'Verdict',
  lost: 'LOST UPDATE',
  safe: 'SAFE',
  finalExpected: 'final {final} · expected {expected}',
  expectedIs: 'Expected is what a perfect guard — one that knows the lock service’s truth — would leave.',
  lostWhy: 'Silent corruption: both clients were told “ok”. {victim}’s write of {v1} was acknowledged, then {other} overwrote it with {v2}, computed from a snapshot ({snap}) read before {victim}’s write landed. Nobody got an error.',
  lostFenced: 'The “{policy}” guard was on and did not catch this interleaving.',
  lostNoLock: 'The lock did not prevent it: when the late write arrived, the lock service had already moved on.',
  safeRejected: 'The storage rejected {c}’s write of {v}: {why} The rejection came from the storage, not the lock service, and {c} was told, so it knows.',
  whyToken: 'token {t} is older than token {seen} it has already seen.',
  whyEtag: '{c} read {vr} and sent its ETag with If-Match, but the content has changed since (412 Precondition Failed).',
  safeStaleCounted: 'Final {final} differs from expected {expected}: {c}’s write was accepted after {c} had lost the lock, so its debit counts where the ideal guard would have refused it. Every acknowledged debit is in the balance: no update was lost.',
  etagAba: '{c}’s If-Match carried the ETag of {v}, and the content was {v} again when the write arrived: the condition held although {c} no longer held the lock. The ETag fences the content, not the lock holder.',
  whyVersion: '{c} read version {vr}, but the value has changed since (compare-and-set failed).',
  whyOwner: 'another client read the record under its own lock since {c} did, so {c} no longer owns it.',
  whySession: '{c}’s write went through its own database session, which had already ended: the session itself was the fence.',
  whyOther: '{reason}.',
  safeDiffers: 'Final {final} differs from expected {expected}, but no acknowledged write was lost: the refused client knows its write failed and could retry.',
  safeClean: 'Every acknowledged write survived: the writes did not interleave, each client read the other’s result.',
  safeStale: 'A write from a client whose lease had already expired was accepted, but it happened not to overwrite anyone’s acknowledged update.',
  live: '{verdict}: final {final}, expected {expected}.',

  timeline: 'Timeline',
  play: 'Play',
  stop: 'Stop',
  back: 'Previous event',
  next: 'Next event',
  playhead: 'Playhead',
  speed: 'Speed',
  speeds: { '1': '1× (real time)', '0.25': '¼× slower', '0.1': '1/10× slower', '0.04': '1/25× slowest' },
  atTime: 'At {t}:',
  nothingYet: 'Press Play or Next event to walk through the run.',
  keysHint: 'Keys: “,” and “.” step to the previous and next event.',
  tieNote: 'Events at the same instant are listed — and drawn a few pixels apart — in the order they were scheduled.',
  svgTitle: 'Space-time diagram of the run',
  svgDesc: 'Lanes from top to bottom: the lock service, each client, the storage. Time runs left to right. The events table below holds the same information as text.',

  svgDescService: 'The lock service here is the {s}.',

  // A service's own words for generic keys (each value a key of this dictionary), where it has them:
  // how a hold that ended by its timer is said, a keepalive that came too late, a queue's entry, a
  // belief past the hold, an unlock that freed nothing, a late write's and a clean run's margin, the
  // naive switch (docs/run-json.md#what-the-diagram-draws). The same in every language: keys, not words.
  ownWords: {
    session: { marginOk: 'marginNoTtl' },
  },
  lanes: { lock: 'Lock service', redis: 'Redis (one server)', client: 'Client {c}', storage: 'Storage' },
  failover: '⚠ master dies; replica takes over without {k} grant(s)',
  keyLost: '{c}’s key lost',
  keyLostShort: 'lost',
  cutOff: '⚠ cut off from {n}',
  healed: 'reconnected to {n}',
  lockedOut: '{c} was locked out: the storage refused its write although {c} held the lock by right.',
  overlap: '⚠ two clients believe they hold the lock',
  overlapShort: '⚠ 2 holders',
  lease: '{c} · token {t}',
  leaseShort: '{c} t{t}',
  leaseNoToken: '{c}’s lease',
  belief: '{c} believes it holds token {t}',
  beliefShort: 't{t}?',
  beliefNoToken: '{c} believes it holds the lock',
  stale: 'stale: lease gone',
  serverStep: '⚠ server clock {by} ms',
  clientStep: '⚠ clock {by} ms',
  staleSession: 'stale: session gone',
  sessionEnded: '{c}’s session ends',
  sessionEndedShort: 'end',
  staleShort: 'stale',
  pauseBlock: 'frozen {d}',
  pauseBlockShort: '❚❚',
  expired: '{c}’s lease expires',
  expiredShort: 'exp.',
  queue: 'queue: {q}',
  queueSep: ' › ',
  queueRev: '{c} (rev {n})',
  queueRevShort: '{c} r{n}',
  waiterExpired: '⚠ {c}’s lease expires while it waits',
  waiterExpiredShort: '⚠ {c} exp.',
  keepaliveFailed: 'keepalive ✗: lease gone',
  released: '{c} releases',
  releasedShort: 'rel',
  renewed: 'renewed',
  lockDelay: 'lock-delay: not grantable',
  gets: 'gets token {t}',
  getsNoToken: 'gets the lock',
  reads: 'reads {v}',
  readRefused: '✗ read refused',
  wakes: 'wakes',
  checkOk: 'check ✓',
  checkFailed: 'check ✗',
  sends: 'sends {v}',
  inFlight: 'held by the network {d}',
  wrote: '✓ {c} {v} · t{t} · ACCEPTED',
  wroteShort: '✓ {c} {v}',
  refused: '✗ {c} {v} · t{t} · REJECTED',
  refusedShort: '✗ {c} {v}',
  wroteNoToken: '✓ {c} {v} · ACCEPTED',
  refusedNoToken: '✗ {c} {v} · REJECTED',
  value: 'value {v}',

  legendTitle: 'What you are looking at',
  legend: [
    ['lease', 'Solid bar on the lock-service lane: the lease as the lock service sees it (the truth), with its token.'],
    ['belief', 'Dashed bar on a client lane: when that client believes it holds the lock. Past the lease’s end it is marked “stale”.'],
    ['pause', 'Hatched block: the client is frozen (for example a GC pause) and notices nothing, not even the clock.'],
    ['arrow', 'Arrows: the lock service granting a token, reads from the storage, and writes reaching it — marked ✓ ACCEPTED or ✗ REJECTED.'],
    ['overlap', 'Shaded band with ⚠: a window in which two clients both believe they hold the lock.'],
    ['value', 'Boxes on the storage lane: the stored value over time.'],
    ['ask', 'Short grey ticks: a client asks for the lock and is refused.'],
    ['ka', 'Triangles on a client lane: a keepalive, ping, heartbeat, Lease renewal or session renewal reaching the server (the events below say which), none while the client is frozen or cut off; hollow: too late, or no answer.'],
    ['queue', '“queue: A › B (rev 3)”: the lock’s keys, nodes or waiting lock calls (by revision, sequence number or commit index) in order; the first holds the lock, each other waits for the one before it.'],
    ['conn', 'Band under a client’s lane: what its connection listener is told (Curator’s, or the library named on the lane), SUSPENDED (the connection is in doubt) or LOST (the session is gone).'],
    ['notice', 'Diamond on a client’s lane: what the lock library told the code — a listener’s state, an answer to “do I still hold it?”, an exception at release, a renewal that died — beside the truth; hollow and red where it is not the truth, or the code was not told.'],
  ],

  about: 'About this scenario',
  source: 'Source',
  derived: 'Derived (analysis, not a claim of the sources)',
  events: 'Events (the diagram as text)',
  eventsShort: 'Events, as text',
  sourceShort: 'Source (the block’s text)',
  colTime: 'Time (ms)',
  colWho: 'Who',
  colWhat: 'What happened',
  transcript: 'Transcript (the seed’s format)',
  transcriptShort: 'Transcript',
  lockService: 'lock service',
  node: 'node',
  storage: 'storage',

  ev: {
    start: '{a} starts.',
    'acquire-sent': '{a} asks the lock service for the lock.',
    granted: 'The lock service grants {a} the lock with token {token}; the lease ends at {end} ms.',
    grantedNoToken: 'The lock service grants {a} the lock; the lease ends at {end} ms.',
    'server-clock-step': 'The lock server’s wall clock steps {step} ms: leases expire by that clock, so they end sooner (or later).',
    'clock-step': '{a}’s wall clock steps {step} ms; {a} measures its lease by that clock.',
    grantedSession: 'PostgreSQL grants {a} the advisory lock: held until {a} unlocks or its session ends (no TTL).',
    deniedNoSession: '{a}’s lock request fails: its database session is gone.',
    'session-ended-terminated': 'An admin terminates {a}’s backend: its session ends{freed}.',
    'session-ended-idle-timeout': '{a}, frozen, sends no keepalives: the server ends its session{freed}.',
    'session-ended-disconnected': '{a} disconnects: its session ends{freed}.',
    freed: ' and the lock it held is free',
    denied: 'The lock service refuses {a}: {holder} holds the lock.',
    deniedDelay: 'The lock service refuses {a}: no one holds the lock, but it is not grantable yet (lock-delay).',
    'lease-expired': '{a}’s lease (token {token}) expires at the lock service. Nobody tells {a}.',
    read: '{a} reads {value} from the storage (version {version}).',
    'read-rejected': 'The storage refuses {a}’s read ({reason}).',
    'pause-start': '{a} freezes for {dur} ms and notices nothing.',
    'pause-end': '{a} wakes up, still believing it holds the lock.',
    'check-ok': '{a} checks its lease by its own clock: {left} ms left ≥ {need} ms needed, so it goes on.',
    'check-failed': '{a} checks its lease by its own clock: {left} ms left < {need} ms needed, so it gives up this attempt.',
    'check-okNoEnd': '{a} checks its lock: it still holds it, with no end in sight (no TTL), so it goes on.',
    'write-sent': '{a} sends the write {value}.',
    'write-held': '{a} sends the write {value}; the network holds it for {held} ms.',
    'write-accepted': '✓ The storage accepts {a}’s write {value}{tok}.',
    'write-rejected': '✗ The storage rejects {a}’s write {value}{tok}: {reason}.',
    released: '{a} releases the lock.',
    renewed: '{a}’s lease is renewed; it now ends at {end} ms.',
    'renew-denied': '{a}’s renewal is refused: the lease is gone.',
    retry: '{a} retries (attempt {attempt}): acquire, read and work again.',
    'gave-up': '{a} gives up.',
    done: '{a} is done.',
    tok: ' (token {token})',
    failover: 'The redis master dies before its replica saw the latest {k} grant(s); the replica takes over, INCR counter included.',
    'partition-cut': 'The network cuts {a} off from {nodes}.',
    'partition-heal': 'The network reconnects {a} to {nodes}.',
  },
  reasons: {
    'stale-token': 'stale token',
    'version-changed': 'version changed',
    'etag-changed': 'ETag changed (412 Precondition Failed)',
    'not-owner': 'not the owner',
    'session-gone': 'the session is gone',
    'token-mismatch': 'not the token the storage kept',
  },

  notices: {
    badNumber: '{name}={value} is not a number of milliseconds; using {used} ms.',
    clamped: '{name}={value} is outside {min}–{max} ms; using {used} ms.',
    badFencing: 'fencing={value} is not one of {list}; using none.',
    badCompare: 'compare={value} is not one of {list}; the side-by-side view stays closed.',
    badScenario: 'scenario={value} is not a known scenario; showing the seed’s.',
    badInject: 'inject={value} was not used: {why}.',
    badLang: 'lang={value} is not available; using English.',
    noPause: 'This scenario has no pause, so pause={value} was ignored.',
    badFlag: '{name}={value} is not 1 or 0; using 0.',
    noNaive: 'This scenario has no naive-client switch, so naive={value} was ignored.',
    noTtl: 'This scenario has no TTL, so ttl={value} was ignored.',
    badControls: 'controls: “{value}” is not one of {list}; ignored.',
    badTheme: 'theme={value} is not light, dark or auto; using auto.',
    badHeight: 'height={value} is not a length such as 480, 480px or 30rem; sizing to the content.',
    badFenceName: '{name}= is not a setting of this lab; ignored.',
  },
  // The "Find a failure" panel (search.js).
  searchTitle: 'Find a failure',
  searchProves: 'Searches every combination of the values below, each decided exactly as if it were run on its own, and shows the smallest one that loses an update (fewest steps from the starts; ties: the parameter listed first decides). It proves the grid’s points only, not the values between them.',
  searchVary: 'Vary (milliseconds)',
  search_from: 'From',
  search_to: 'To',
  search_step: 'Step',
  searchFieldLabel: '{name}: {field} (ms)',
  searchRun: 'Find a failure',
  searchCancel: 'Cancel',
  searchProgress: 'Search progress',
  searchStarted: 'Searching in {n} workers…',
  searchProgressSaid: '{pct}% searched…',
  searchCancelled: 'Search cancelled.',
  searchSafe: 'No lost update in {n} combinations ({runs} engine runs decided them all).',
  searchSafeBehaviours: 'No lost update in {n} combinations (at least {m} distinct behaviours; {runs} engine runs decided them all).',
  searchLost: 'Lost update. The smallest of {n} combinations:',
  searchValue: '{name} = {ms} ms',
  searchCost: '(cost {cost}: steps from the starts).',
  searchOpened: 'It is open in the diagram now.',
  searchLink: 'Link to this counterexample',
  searchError: 'The search stopped: {msg}',
  // Workers that cannot start (worker-start.js): no Worker, or a host page whose CSP allows no blob: workers.
  searchNoWorkers:
    'This page cannot start the search’s workers, so it cannot search. A page that loads the lab from another site must allow workers from blob: URLs and from the lab’s site in its security policy (Content-Security-Policy: worker-src blob: and the lab’s origin).',
  searchNone: 'Tick at least one parameter to vary.',
  searchNotWhole: '{name}: {field} “{value}” is not a whole number of milliseconds.',
  searchStepZero: '{name}: the step must be more than 0 ms.',
  searchEmpty: '{name}: the range is empty (From {from} ms is after To {to} ms).',
  searchOutside: '{name}: the range must stay within {min}–{max} ms (the slider’s range).',
};

/** The languages on offer, by code, each named in its own language. A line here and a file i18n/<code>.js. */
export const languages = { en: 'English', bn: 'বাংলা' };

const loaded = {};

/** A language's dictionary as built: English filling its gaps, and every service's (and the client
 * libraries') words loaded so far (i18n-loads.js). */
function build(lang, words, scenarios) {
  const d = { ...en, ...words, groups: { ...en.groups, ...words.groups } };
  if (scenarios !== undefined) d.scenarios = scenarios || {};
  return withWordsLoaded(d, lang);
}

/**
 * The dictionary for `lang` (a key of `languages`), English filling any gap (shallow per top-level
 * key; per group in `groups`), with the scenario texts in `scenarios` ({id: {title, summary, params:
 * {name: label}}}) when the build wrote them (English's are the catalogue's: engine.js), and the words
 * of every lock service loaded so far. Loaded once per page, whatever asks for it.
 */
export function loadLang(lang) {
  if (!Object.hasOwn(languages, lang)) lang = 'en';
  if (lang === 'en') return (loaded.en ??= Promise.resolve(build('en', {})));
  return (loaded[lang] ??= Promise.all([
    import(`./i18n/${lang}.js`),
    fetch(new URL(`pkg/scenarios.${lang}.json`, import.meta.url))
      .then((r) => (r.ok ? r.json() : null))
      .catch(() => null),
  ]).then(([m, scenarios]) => build(lang, m.default, scenarios)));
}

/** Loads the client libraries' words, and their scenarios' prose in every language, into every
 * dictionary (i18n-loads.js). Never rejects. */
export const loadLibraryWords = () => loadLibraryWordsIn(Object.keys(languages));

/** Whether catalogue scenario `s` has a client that calls a lock library: the wasm that runs it is the
 * one with the libraries (its `engine`, engine.js), and its words are i18n/libraries.js's. */
const callsLibrary = (s) => s.engine === 'clients';

/** The words catalogue scenario `s` needs beyond the core's, loaded: its service's and, where a client
 * calls a library, the libraries'. Never rejects. */
export const loadWordsFor = (s) => Promise.all([loadServiceWords(s.service), callsLibrary(s) && loadLibraryWords()]);

/** Whether the words `s` needs are in the dictionaries now (or will never be: a failed load). */
export const wordsSettledFor = (s) => serviceWordsSettled(s.service) && (!callsLibrary(s) || libraryWordsSettled());

/** The tables of words a dictionary has (`lanes`, `ev`, `notices`), each read through `orKeys` too. */
const wordTables = new WeakMap();
const isWordTable = (v) => isObject(v) && Object.values(v).every((x) => typeof x === 'string');

/**
 * Dictionary `d` as the lab reads it: a word it lacks, at the top or in a table of words (`lanes.node`),
 * reads as its key (`staleGrant`), so a run whose service's words could not load still draws, labelled
 * by keys, instead of failing on a missing word. Tables of keys or texts (`ownWords`, `scenarios`)
 * are read as they are; `in` still tells what the dictionary has.
 */
export const orKeys = (d) =>
  new Proxy(d, {
    get(t, k) {
      if (typeof k !== 'string') return t[k];
      if (!(k in t)) return k;
      const v = t[k];
      if (!isWordTable(v)) return v;
      if (!wordTables.has(v)) wordTables.set(v, new Proxy(v, { get: (w, x) => (typeof x === 'string' && !(x in w) ? x : w[x]) }));
      return wordTables.get(v);
    },
  });

/**
 * The lab's numbers in language `lang`: at most three decimals, no grouping, '' for none. Plain digits
 * need no Intl (its first use costs ~30 ms of start-up); other scripts get theirs.
 */
export function numberFormat(lang) {
  const nf = lang === 'en' ? null : new Intl.NumberFormat(lang, { maximumFractionDigits: 3, useGrouping: false });
  return (v) => (v == null || Number.isNaN(v) ? '' : nf ? nf.format(v) : String(Math.round(v * 1000) / 1000));
}

/** Fills {name} placeholders from `vars`; unknown names stay visible rather than vanish. */
export function fmt(s, vars = {}) {
  return String(s).replace(/\{(\w+)\}/g, (m, k) => (k in vars && vars[k] != null ? String(vars[k]) : m));
}

/**
 * The key of generic word `key` in the words of `run`'s service, in dictionary `d`: what its
 * `ownWords` maps `key` to (`expired` → `sessionExpired`), else `otherwise` (`key` itself).
 */
export const ownKey = (d, run, key, otherwise = key) => (d.ownWords[run.service] || {})[key] || otherwise;

/** Whether `run`'s service has capability `cap` (its run JSON's `diagram.has`: `observes`, `lock-delay`, …). */
export const serviceHas = (run, cap) => run.diagram.has.includes(cap);
