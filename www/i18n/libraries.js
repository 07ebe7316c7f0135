// The client libraries' words, in English and Bengali: what the page shows only for a run in which a
// client calls a lock library (the run JSON's `libraries`, docs/run-json.md). i18n.js loads this file
// alongside the wasm that runs such a scenario and merges it into the dictionary in use, as it does a
// lock service's words (i18n/services/). A library is named by the run's data; what its code calls
// things (`libraryCalls`) is code, the same in every language, so it is written once, below.

/** Each library's calls as the application's code writes them, by the library's name in the run's
 * `libraries` (docs/clients.md: what each one exposes): `owned` the question "do I still hold it?"
 * and its two answers, `release` the call that gives the lock back, `renewal` what renews it behind
 * the code's back, `done` the session's end as the code sees it, `reconnected` the listener's word
 * for a connection back. */
const libraryCalls = {
  kazoo: { owned: 'lock.is_acquired', yes: 'True', no: 'False', release: 'lock.release()', reconnected: 'CONNECTED' },
  curator: { owned: 'isAcquiredInThisProcess()', yes: 'true', no: 'false', release: 'release()', reconnected: 'RECONNECTED' },
  'redis-py': { owned: 'lock.owned()', yes: 'True', no: 'False', release: 'lock.release()' },
  'python-redis-lock': { owned: 'lock.locked()', yes: 'True', no: 'False', release: 'lock.release()', renewal: 'auto_renewal' },
  redisson: { owned: 'isHeldByCurrentThread()', yes: 'true', no: 'false', release: 'unlock()', renewal: 'watchdog' },
  pottery: { owned: 'lock.locked()', yes: '> 0', no: '0', release: 'lock.release()' },
  'node-redlock': { owned: 'lock.expiration > Date.now()', yes: 'true', no: 'false', release: 'lock.unlock()' },
  'etcd-concurrency': { release: 'mutex.Unlock()', done: 'session.Done()' },
};

export default {
  en: {
    libraryCalls,
    // A client's lane: its name, then the library it calls and that library's version.
    // A reader's own scenario with library= (user-scenario.js): where it runs.
  scenarioNeedsLibraries: 'A client here calls a lock library (library={lib}). The page runs client libraries only in its own catalogue’s scenarios; run this one with the command line: leaselab run --file FILE, or leaselab check FILE.',
    laneLibrary: '{c} · {lib} {v}',
    // The notes on a client's lane: what the library told the code (short: a phone's width).
    noteOwnedYes: '{call} → {yes}',
    noteOwnedYesStale: '{call} → {yes}, but the lock is gone',
    noteOwnedYesStaleShort: '{call} → {yes} ✗',
    noteOwnedNo: '{call} → {no}: gives up',
    noteOwnedNoShort: '{call} → {no}',
    noteReleaseRaised: '{release} raised {raised}',
    noteReleaseRaisedShort: '{raised}',
    noteRenewalDied: '{renewal} died — the app is not told',
    noteRenewalDiedShort: '{renewal} died, unseen',
    noteSessionDone: '{done} closed: session gone',
    noteSessionDoneShort: '{done} closed',
    noteListenerOk: 'listener: nothing lost, goes on',
    noteListenerOkShort: 'listener: ok',
    noteListenerOkStale: 'listener: nothing lost, goes on — but the lock is gone',
    noteListenerOkStaleShort: 'listener: ok ✗',
    noteListenerLost: 'listener: lock lost, gives up',
    noteListenerLostShort: 'listener: lost',
    // The connection-state bands of a client that calls a library: the states its listener is called with.
    libSuspendedBand: 'SUSPENDED: {lib} tells the listener',
    libLostBand: 'LOST: {lib} tells the listener',
    // The diagram's text alternative: which client calls which library.
    svgDescLibraries: 'The clients call a lock library: {list}; the diamonds on a client’s lane are what it told the code.',
    ev: {
      'notice-owned-yes': '{a} asks {lib} whether it still holds the lock: {call} answers {yes}, and it does.',
      'notice-owned-yes-stale': '{a} asks {lib} whether it still holds the lock: {call} answers {yes} — but the lock service has given the lock away. The code goes on, told the opposite of the truth.',
      'notice-owned-no': '{a} asks {lib} whether it still holds the lock: {call} answers {no}, so {a} gives up this attempt.',
      'notice-owned-no-held': '{a} asks {lib} whether it still holds the lock: {call} answers {no} although it does, so {a} gives up this attempt.',
      'notice-release-raised': '{a} releases: {release} raises {raised}. The lock was no longer {a}’s, and what {a} wrote meanwhile has already landed.',
      'notice-renewal-died': '{lib}’s {renewal} wakes with {a}, fails to renew the lock (it is gone) and stops. {a}’s code is not told.',
      'notice-session-done': '{lib}: {done} closes — {a}’s session has ended, and its lock with it.',
      'notice-listener-ok': '{a} checks what its connection listener has heard: nothing that loses the lock, so it goes on.',
      'notice-listener-ok-stale': '{a} checks what its connection listener has heard: nothing that loses the lock, so it goes on — but the lock service has given the lock away. The listener has not been told yet.',
      'notice-listener-lost': '{a} checks what its connection listener has heard: the connection was lost, so it gives up this attempt.',
      'library-suspended': '{lib} calls {a}’s connection listener with SUSPENDED: the connection is in doubt.',
      'library-lost': '{lib} calls {a}’s connection listener with LOST: the session is gone.',
      'library-reconnected': '{lib} calls {a}’s connection listener with {reconnected}: connected again.',
    },
  },
  bn: {
    libraryCalls,
  scenarioNeedsLibraries: 'এখানে একটি ক্লায়েন্ট একটি লক লাইব্রেরি ডাকে (library={lib})। পাতাটি ক্লায়েন্ট লাইব্রেরি চালায় শুধু নিজের তালিকার পরিস্থিতিতে; এটি চালান কমান্ড লাইনে: leaselab run --file FILE, অথবা leaselab check FILE।',
    laneLibrary: '{c} · {lib} {v}',
    noteOwnedYes: '{call} → {yes}',
    noteOwnedYesStale: '{call} → {yes}, অথচ লক আর নেই',
    noteOwnedYesStaleShort: '{call} → {yes} ✗',
    noteOwnedNo: '{call} → {no}: হাল ছাড়ে',
    noteOwnedNoShort: '{call} → {no}',
    noteReleaseRaised: '{release} {raised} ছুড়ল',
    noteReleaseRaisedShort: '{raised}',
    noteRenewalDied: '{renewal} থেমে গেল — অ্যাপ জানে না',
    noteRenewalDiedShort: '{renewal} থামল, অজানা',
    noteSessionDone: '{done} বন্ধ: সেশন নেই',
    noteSessionDoneShort: '{done} বন্ধ',
    noteListenerOk: 'লিসেনার: কিছু হারায়নি, এগোয়',
    noteListenerOkShort: 'লিসেনার: ঠিক',
    noteListenerOkStale: 'লিসেনার: কিছু হারায়নি, এগোয় — অথচ লক আর নেই',
    noteListenerOkStaleShort: 'লিসেনার: ঠিক ✗',
    noteListenerLost: 'লিসেনার: লক হারিয়েছে, হাল ছাড়ে',
    noteListenerLostShort: 'লিসেনার: হারানো',
    libSuspendedBand: 'SUSPENDED: {lib} লিসেনারকে জানায়',
    libLostBand: 'LOST: {lib} লিসেনারকে জানায়',
    svgDescLibraries: 'ক্লায়েন্টরা একটি লক লাইব্রেরি ডাকে: {list}; ক্লায়েন্টের লেনের হীরকগুলো হলো লাইব্রেরি কোডকে যা জানিয়েছে।',
    ev: {
      'notice-owned-yes': '{a} {lib}-কে জিজ্ঞেস করে লক এখনও তার কি না: {call} উত্তর দেয় {yes}, আর সত্যিই তা-ই।',
      'notice-owned-yes-stale': '{a} {lib}-কে জিজ্ঞেস করে লক এখনও তার কি না: {call} উত্তর দেয় {yes} — অথচ লক সার্ভিস লকটি অন্যকে দিয়ে দিয়েছে। কোড এগিয়ে যায়, সত্যের উল্টোটা শুনে।',
      'notice-owned-no': '{a} {lib}-কে জিজ্ঞেস করে লক এখনও তার কি না: {call} উত্তর দেয় {no}, তাই {a} এই চেষ্টা ছেড়ে দেয়।',
      'notice-owned-no-held': '{a} {lib}-কে জিজ্ঞেস করে লক এখনও তার কি না: লক তার হলেও {call} উত্তর দেয় {no}, তাই {a} এই চেষ্টা ছেড়ে দেয়।',
      'notice-release-raised': '{a} লক ছাড়ে: {release} {raised} ছোড়ে। লক আর {a}-র ছিল না, আর এর মধ্যে {a} যা লিখেছে তা আগেই পৌঁছে গেছে।',
      'notice-renewal-died': '{lib}-এর {renewal} {a}-র সঙ্গে জেগে ওঠে, লক নবায়ন করতে ব্যর্থ হয় (লক আর নেই) আর থেমে যায়। {a}-র কোডকে কেউ জানায় না।',
      'notice-session-done': '{lib}: {done} বন্ধ হয় — {a}-র সেশন শেষ, আর তার লকও।',
      'notice-listener-ok': '{a} দেখে তার সংযোগ-লিসেনার কী শুনেছে: লক হারানোর মতো কিছু নয়, তাই সে এগিয়ে যায়।',
      'notice-listener-ok-stale': '{a} দেখে তার সংযোগ-লিসেনার কী শুনেছে: লক হারানোর মতো কিছু নয়, তাই সে এগিয়ে যায় — অথচ লক সার্ভিস লকটি অন্যকে দিয়ে দিয়েছে। লিসেনারকে এখনও জানানো হয়নি।',
      'notice-listener-lost': '{a} দেখে তার সংযোগ-লিসেনার কী শুনেছে: সংযোগ হারিয়েছে, তাই সে এই চেষ্টা ছেড়ে দেয়।',
      'library-suspended': '{lib} {a}-র সংযোগ-লিসেনারকে SUSPENDED জানায়: সংযোগ নিয়ে সংশয়।',
      'library-lost': '{lib} {a}-র সংযোগ-লিসেনারকে LOST জানায়: সেশন আর নেই।',
      'library-reconnected': '{lib} {a}-র সংযোগ-লিসেনারকে {reconnected} জানায়: আবার সংযুক্ত।',
    },
  },
};
