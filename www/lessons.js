// The lessons, as data: chapters of beats. A beat sets the lab (`set`: scenario, fencing, retries, naive
// and parameters by name, in ms), says something (`say`, shown before the run), may ask a question
// (`ask`: choices, each with a predicate `when` over the run), and explains (`why`, after the reveal).
// `free` beats leave the sliders to the learner.
//
// Nothing here states an outcome: numbers come from the run through {placeholders} (lesson.js, `vars`),
// the right answer is whichever choice's predicate holds for the run, and `claims` are predicates the
// text relies on. www/tests/learn.test.mjs runs every beat through the wasm and fails if a claim does
// not hold, if not exactly one choice holds, if a placeholder is unknown, or if a text has a digit
// outside a placeholder. `given` holds premises quoted in the text (not outcomes of a run).
//
// Predicates (all keys must hold): verdict 'safe'|'lost-update'; lost 'A'|'B'|null (whose acknowledged
// update is missing); rejected 'A'|'B' (a write of theirs refused) or null (no write refused);
// lockRejects 'A' (the lock service refused a write of A's); granted / denied 'A'|'B' (a lock event);
// firstWrite 'A'|'B' (whose write was accepted first); overlap true|false (two clients believed they
// held the lock at once); allApplied true (every client's debit is in the final balance); writes N;
// lockedOut 'A'|'B'|null (whose write the storage refused while it held the lock by right);
// scanZero / scanSome: a policy of the beat's scan with no / some lost update; searchZero / searchSome:
// a policy under which the beat's search (`search`: the grid the "Find a failure" panel is set to)
// finds no / some lost update; tableUnsafe / tableSafe: a fault whose cell in the beat's row of the
// safety table (`table`: { service, fencing }, from the shipped pkg/matrix.json, shown after the reveal
// as <lease-lab-matrix>) is unsafe / safe; ownedSays / ownedTruth true|false: what a client's lock
// library last answered its code's "do I still hold it?" (its `owned-*` notice), and whether that was
// the truth.

export const chapters = [
  {
    title: { en: 'A lock and its lease', bn: 'একটি লক ও তার লিজ' },
    beats: [
      {
        set: { scenario: 'seed-advisory-lock' },
        say: {
          en: 'The seed’s step one. Client A takes a PostgreSQL advisory lock and keeps its session open. Client B asks for the same lock with pg_try_advisory_lock and is told no. Nobody set a TTL.',
          bn: 'বীজ-উদাহরণের প্রথম ধাপ। ক্লায়েন্ট A একটি PostgreSQL অ্যাডভাইজরি লক নেয় এবং তার সেশন খোলা রাখে। ক্লায়েন্ট B pg_try_advisory_lock দিয়ে একই লক চায়, উত্তর আসে: না। কেউ কোনো TTL ঠিক করেনি।',
        },
        ask: {
          q: {
            en: 'Then an admin terminates A’s backend with pg_terminate_backend. Nobody runs unlock. When B asks again, does it get the lock?',
            bn: 'এরপর একজন অ্যাডমিন pg_terminate_backend দিয়ে A-র ব্যাকএন্ড বন্ধ করে দেন। কেউ unlock চালায় না। B আবার চাইলে কি লকটি পাবে?',
          },
          choices: [
            { say: { en: 'Yes: the session’s death released the lock', bn: 'হ্যাঁ: সেশনের মৃত্যুই লকটি ছেড়ে দিয়েছে' }, when: { granted: 'B' } },
            { say: { en: 'No: nobody unlocked it, so it stays taken', bn: 'না: কেউ আনলক করেনি, তাই লক ধরা থাকে' }, when: { granted: null } },
          ],
        },
        claims: { denied: 'B', writes: 0 },
        why: {
          en: 'B was refused while A’s session lived, and got the lock once the session ended at {A.sessionEnd} ms. No TTL, no unlock: the connection’s death is the release event — the cleanest form of a lease.',
          bn: 'A-র সেশন যতক্ষণ বেঁচে ছিল, B প্রত্যাখ্যাত হয়েছে; {A.sessionEnd} ms-এ সেশন শেষ হতেই B লক পেয়েছে। TTL নেই, unlock নেই: সংযোগের মৃত্যুই মুক্তির ঘটনা — লিজের সবচেয়ে পরিচ্ছন্ন রূপ।',
        },
      },
      {
        set: { scenario: 'postgres-session' },
        say: {
          en: 'Now A holds the advisory lock, reads the balance ({A.read}) and freezes for {pause} ms. Its connection stays alive the whole time.',
          bn: 'এবার A অ্যাডভাইজরি লকটি ধরে রাখে, ব্যালান্স পড়ে ({A.read}) এবং {pause} ms থমকে যায়। পুরো সময় তার সংযোগ জীবিত থাকে।',
        },
        ask: {
          q: { en: 'Does B get the lock while A is frozen?', bn: 'A থমকে থাকার সময় B কি লকটি পায়?' },
          choices: [
            { say: { en: 'Yes: B takes it and writes first', bn: 'হ্যাঁ: B লকটি নিয়ে আগে লেখে' }, when: { firstWrite: 'B' } },
            { say: { en: 'No: B waits until A unlocks, and both debits land', bn: 'না: A আনলক না করা পর্যন্ত B অপেক্ষা করে, আর দুটি ডেবিটই টিকে যায়' }, when: { firstWrite: 'A', allApplied: true } },
          ],
        },
        claims: { verdict: 'safe' },
        why: {
          en: 'A wrote {A.value} when it woke, then B took the lock and wrote {B.value}: final {final}, expected {expected}. Safe — but B waited. A lock with no TTL buys safety with liveness.',
          bn: 'জেগে উঠে A লিখেছে {A.value}, তারপর B লক নিয়ে লিখেছে {B.value}: চূড়ান্ত {final}, প্রত্যাশিত {expected}। নিরাপদ — কিন্তু B-কে অপেক্ষা করতে হয়েছে। TTL-হীন লক নিরাপত্তা কেনে সচলতার দামে।',
        },
      },
      {
        set: { scenario: 'postgres-terminate' },
        say: {
          en: 'An admin terminates A’s backend at {kill} ms while A is still frozen, so B gets the lock. A wakes and sends its write through its own session.',
          bn: 'A থমকে থাকা অবস্থায় {kill} ms-এ একজন অ্যাডমিন A-র ব্যাকএন্ড বন্ধ করে দেন, তাই B লকটি পায়। A জেগে উঠে নিজের সেশন দিয়েই লেখা পাঠায়।',
        },
        ask: {
          q: { en: 'What happens to A’s late write?', bn: 'A-র দেরিতে আসা লেখার কী হয়?' },
          choices: [
            { say: { en: 'It fails: its session is gone', bn: 'ব্যর্থ হয়: তার সেশন আর নেই' }, when: { rejected: 'A' } },
            { say: { en: 'It goes through and wipes out B’s update', bn: 'পৌঁছে যায় এবং B-র আপডেট মুছে দেয়' }, when: { lost: 'B' } },
          ],
        },
        claims: { verdict: 'safe', granted: 'B' },
        why: {
          en: 'A’s write was refused: the session that held the lock is the session that writes, and it died with the lock. Final {final}, expected {expected}. That is fencing for free — as long as the data lives in the same database.',
          bn: 'A-র লেখা প্রত্যাখ্যাত হয়েছে: যে সেশন লক ধরে রেখেছিল সেই সেশনই লেখে, আর লকের সঙ্গে সেটিও মরেছে। চূড়ান্ত {final}, প্রত্যাশিত {expected}। এটি বিনা খরচের ফেন্সিং — যতক্ষণ ডেটা একই ডেটাবেসে থাকে।',
        },
      },
      {
        set: { scenario: 'postgres-terminate-elsewhere' },
        free: true,
        say: {
          en: 'Try it. Here the data lives in another store, so the dead session cannot stop A’s write. Move the kill time and the pause, and watch when B’s update is lost.',
          bn: 'নিজে চেষ্টা করুন। এখানে ডেটা অন্য একটি স্টোরে থাকে, তাই মৃত সেশন A-র লেখা থামাতে পারে না। kill-এর সময় ও বিরতি সরিয়ে দেখুন কখন B-র আপডেট হারায়।',
        },
        claims: { lost: 'B' },
        why: {
          en: 'As set: final {final}, expected {expected}. A session lock guarding a different store is just another lease.',
          bn: 'এই সেটিংয়ে: চূড়ান্ত {final}, প্রত্যাশিত {expected}। অন্য স্টোর পাহারা দেওয়া সেশন লক আসলে আরেকটি লিজ মাত্র।',
        },
      },
    ],
  },
  {
    title: { en: 'The pause', bn: 'বিরতি' },
    beats: [
      {
        set: { scenario: 'seed-gc-pause', fencing: 'none' },
        say: {
          en: 'The seed’s step two. A takes a lease with a TTL of {ttl} ms and token {A.token}, reads the balance {A.read}, and freezes for {pause} ms — a GC pause. B asks for the lock every {retry} ms. A will withdraw {A.debit}, B {B.debit}.',
          bn: 'বীজ-উদাহরণের দ্বিতীয় ধাপ। A {ttl} ms TTL-এর একটি লিজ ও টোকেন {A.token} পায়, ব্যালান্স {A.read} পড়ে, তারপর {pause} ms থমকে যায় — একটি GC বিরতি। B প্রতি {retry} ms-এ লক চায়। A তুলবে {A.debit}, B তুলবে {B.debit}।',
        },
        ask: {
          q: { en: 'No fencing. When A wakes it writes its old snapshot minus its debit. How does it end?', bn: 'ফেন্সিং নেই। জেগে উঠে A তার পুরনো স্ন্যাপশট থেকে ডেবিট বাদ দিয়ে লেখে। শেষটা কেমন হয়?' },
          choices: [
            { say: { en: 'Both debits are applied', bn: 'দুটি ডেবিটই প্রয়োগ হয়' }, when: { allApplied: true } },
            { say: { en: 'B’s update is lost', bn: 'B-র আপডেট হারিয়ে যায়' }, when: { lost: 'B' } },
            { say: { en: 'A’s write is refused', bn: 'A-র লেখা প্রত্যাখ্যাত হয়' }, when: { rejected: 'A' } },
          ],
        },
        claims: { verdict: 'lost-update', lost: 'B' },
        why: {
          en: 'B took the lock when A’s lease ended and wrote {B.value}. A woke and wrote {A.value}, computed from its stale snapshot {A.read}. Final {final}, expected {expected}: B’s update is lost.',
          bn: 'A-র লিজ শেষ হতেই B লক নিয়ে লিখেছে {B.value}। A জেগে উঠে তার বাসি স্ন্যাপশট {A.read} থেকে হিসাব করে লিখেছে {A.value}। চূড়ান্ত {final}, প্রত্যাশিত {expected}: B-র আপডেট হারিয়ে গেছে।',
        },
      },
      {
        set: { scenario: 'seed-gc-pause', fencing: 'none' },
        say: { en: 'Same run. Look at what each client was told.', bn: 'একই রান। দেখুন প্রত্যেক ক্লায়েন্টকে কী জানানো হয়েছিল।' },
        ask: {
          q: { en: 'Did anyone get an error?', bn: 'কেউ কি কোনো ত্রুটি পেয়েছিল?' },
          choices: [
            { say: { en: 'Yes, A’s write was refused', bn: 'হ্যাঁ, A-র লেখা প্রত্যাখ্যাত হয়েছিল' }, when: { rejected: 'A' } },
            { say: { en: 'Yes, B’s write was refused', bn: 'হ্যাঁ, B-র লেখা প্রত্যাখ্যাত হয়েছিল' }, when: { rejected: 'B' } },
            { say: { en: 'Nobody: both writes were accepted', bn: 'কেউ না: দুটি লেখাই গৃহীত হয়েছিল' }, when: { rejected: null } },
          ],
        },
        claims: { verdict: 'lost-update' },
        why: {
          en: 'Both writes were accepted, and no client saw an exception. Silent corruption is the nature of this danger: nothing in the program tells you it happened.',
          bn: 'দুটি লেখাই গৃহীত হয়েছে, কোনো ক্লায়েন্ট কোনো exception পায়নি। নিঃশব্দ ক্ষতিই এই বিপদের স্বভাব: প্রোগ্রামের কিছুই জানায় না যে এটি ঘটেছে।',
        },
      },
      {
        set: { scenario: 'seed-gc-pause', fencing: 'none', pause: 200 },
        say: { en: 'Now the pause is {pause} ms, shorter than the TTL of {ttl} ms.', bn: 'এবার বিরতি {pause} ms, {ttl} ms TTL-এর চেয়ে ছোট।' },
        ask: {
          q: { en: 'Is an update lost?', bn: 'কোনো আপডেট কি হারায়?' },
          choices: [
            { say: { en: 'No: both debits are applied', bn: 'না: দুটি ডেবিটই প্রয়োগ হয়' }, when: { verdict: 'safe', allApplied: true } },
            { say: { en: 'Yes: B’s update is lost', bn: 'হ্যাঁ: B-র আপডেট হারায়' }, when: { lost: 'B' } },
          ],
        },
        claims: { firstWrite: 'A' },
        why: {
          en: 'A wrote {A.value} inside its lease; B then read it and wrote {B.value}. Final {final}, expected {expected}. The danger needs a pause longer than the lease.',
          bn: 'A তার লিজের ভেতরেই লিখেছে {A.value}; তারপর B সেটি পড়ে লিখেছে {B.value}। চূড়ান্ত {final}, প্রত্যাশিত {expected}। বিপদের জন্য লিজের চেয়ে লম্বা বিরতি লাগে।',
        },
      },
      {
        set: { scenario: 'seed-gc-pause', fencing: 'none' },
        free: true,
        say: {
          en: 'Try it: drag the Pause slider across the TTL, and the TTL across the pause, and watch the lost update appear and vanish.',
          bn: 'নিজে চেষ্টা করুন: বিরতির স্লাইডার TTL পেরিয়ে টানুন, TTL-কেও বিরতির পেরিয়ে, আর দেখুন হারানো আপডেট কখন আসে আর কখন মিলিয়ে যায়।',
        },
        claims: { verdict: 'lost-update' },
        why: { en: 'At the start: final {final}, expected {expected}.', bn: 'শুরুতে: চূড়ান্ত {final}, প্রত্যাশিত {expected}।' },
      },
      {
        set: { scenario: 'zk-session-expiry' },
        say: {
          en: 'ZooKeeper’s lock lives in a session, like PostgreSQL’s — but a ZooKeeper session lives only while the client’s pings arrive. A holds the lock, reads {A.read} and freezes for {pause} ms; its pings freeze with it. The session timeout is {session} ms.',
          bn: 'ZooKeeper-এর লক থাকে একটি সেশনে, PostgreSQL-এর মতো — কিন্তু ZooKeeper-এর সেশন টিকে থাকে কেবল যতক্ষণ ক্লায়েন্টের পিং পৌঁছায়। A লক ধরে, {A.read} পড়ে আর {pause} ms থমকে যায়; তার পিংও থমকে যায়। সেশন টাইমআউট {session} ms।',
        },
        ask: {
          q: { en: 'Does B get the lock while A is frozen?', bn: 'A থমকে থাকার সময় B কি লকটি পায়?' },
          choices: [
            { say: { en: 'Yes: A’s session expires, its node goes, and B writes first', bn: 'হ্যাঁ: A-র সেশন ফুরোয়, তার নোড মুছে যায়, আর B আগে লেখে' }, when: { firstWrite: 'B' } },
            { say: { en: 'No: the session holds the lock until A wakes', bn: 'না: A জেগে ওঠা পর্যন্ত সেশন লকটি ধরে রাখে' }, when: { firstWrite: 'A' } },
          ],
        },
        claims: { verdict: 'lost-update', lost: 'B' },
        why: {
          en: 'ZooKeeper heard nothing from A for a session timeout, expired the session and deleted A’s node; B wrote {B.value}, then A woke and wrote {A.value}: final {final}, expected {expected}. A session with a timeout is a lease by another name.',
          bn: 'এক সেশন টাইমআউট ধরে ZooKeeper A-র কোনো সাড়া পায়নি, সেশন শেষ করে A-র নোড মুছে দিয়েছে; B লিখেছে {B.value}, তারপর A জেগে লিখেছে {A.value}: চূড়ান্ত {final}, প্রত্যাশিত {expected}। টাইমআউটওয়ালা সেশন আসলে অন্য নামে একটি লিজ।',
        },
      },
    ],
  },
  {
    title: { en: 'Fencing tokens', bn: 'ফেন্সিং টোকেন' },
    beats: [
      {
        set: { scenario: 'seed-gc-pause', fencing: 'token' },
        say: {
          en: 'Every grant carries a token that grows by one: A got {A.token}, B will get {B.token}. The storage now remembers the highest token it has seen on a write and refuses lower ones. Same pause of {pause} ms.',
          bn: 'প্রতিটি অনুমোদনের সঙ্গে একটি টোকেন আসে যা এক করে বাড়ে: A পেয়েছে {A.token}, B পাবে {B.token}। স্টোরেজ এখন লেখায় দেখা সর্বোচ্চ টোকেন মনে রাখে এবং তার চেয়ে ছোটগুলো ফিরিয়ে দেয়। বিরতি আগের মতোই {pause} ms।',
        },
        ask: {
          q: { en: 'Who stops A’s stale write?', bn: 'A-র বাসি লেখা কে থামায়?' },
          choices: [
            { say: { en: 'The lock service', bn: 'লক সার্ভিস' }, when: { lockRejects: 'A' } },
            { say: { en: 'The storage', bn: 'স্টোরেজ' }, when: { rejected: 'A' } },
            { say: { en: 'Nobody: B’s update is still lost', bn: 'কেউ না: B-র আপডেট তবুও হারায়' }, when: { lost: 'B' } },
          ],
        },
        claims: { verdict: 'safe' },
        why: {
          en: 'The storage refused token {A.token} after it had seen token {B.token}. Final {final}, expected {expected}. The rejection came from the storage, not the lock service: the lock service never sees the write.',
          bn: 'টোকেন {B.token} দেখার পর স্টোরেজ টোকেন {A.token} ফিরিয়ে দিয়েছে। চূড়ান্ত {final}, প্রত্যাশিত {expected}। প্রত্যাখ্যান এসেছে স্টোরেজ থেকে, লক সার্ভিস থেকে নয়: লক সার্ভিস লেখাটি দেখেই না।',
        },
      },
      {
        set: { scenario: 'etcd-lease-pause', fencing: 'token' },
        say: {
          en: 'The same story on etcd. A’s lock key was put at revision {A.token}; B’s key waits behind it and will hold the lock with revision {B.token}. A’s keepalives freeze with A, so its lease expires while it is frozen. The storage keeps the highest revision it has seen on a write.',
          bn: 'একই গল্প etcd-তে। A-র লক কী রাখা হয়েছে রিভিশন {A.token}-এ; B-র কী তার পেছনে অপেক্ষা করে আর রিভিশন {B.token} নিয়ে লক পাবে। A-র কিপঅ্যালাইভ A-র সঙ্গেই থমকে যায়, তাই থমকে থাকার সময় তার লিজ ফুরোয়। স্টোরেজ লেখায় দেখা সর্বোচ্চ রিভিশন মনে রাখে।',
        },
        ask: {
          q: { en: 'Does etcd’s revision stop A’s late write?', bn: 'etcd-এর রিভিশন কি A-র দেরিতে আসা লেখা থামায়?' },
          choices: [
            { say: { en: 'Yes: the storage refuses the older revision', bn: 'হ্যাঁ: স্টোরেজ পুরনো রিভিশন ফিরিয়ে দেয়' }, when: { rejected: 'A' } },
            { say: { en: 'No: B’s update is lost all the same', bn: 'না: B-র আপডেট তবুও হারায়' }, when: { lost: 'B' } },
          ],
        },
        claims: { verdict: 'safe' },
        why: {
          en: 'The storage refused revision {A.token} after it had seen revision {B.token}: final {final}, expected {expected}. etcd’s own docs say so: its lock alone is not mutual exclusion; check the revision where the data lives.',
          bn: 'রিভিশন {B.token} দেখার পর স্টোরেজ রিভিশন {A.token} ফিরিয়ে দিয়েছে: চূড়ান্ত {final}, প্রত্যাশিত {expected}। etcd-এর নিজের নথিও তা-ই বলে: শুধু তার লক পারস্পরিক বর্জন নয়; ডেটা যেখানে থাকে সেখানে রিভিশন যাচাই করুন।',
        },
      },
      {
        set: { scenario: 'etcd-contrib-lock', fencing: 'equal-token' },
        say: {
          en: 'etcd’s contrib/lock example fences another way: each holder sends its lease ID, and the storage keeps the first ID written and accepts only that one. A writes first, then freezes; its lease expires and B holds the lock.',
          bn: 'etcd-এর contrib/lock উদাহরণ অন্যভাবে ফেন্স করে: প্রত্যেক ধারক তার লিজ ID পাঠায়, আর স্টোরেজ প্রথম লেখা ID রেখে দেয় আর শুধু সেটিই গ্রহণ করে। A আগে লেখে, তারপর থমকে যায়; তার লিজ ফুরোয় আর লক পায় B।',
        },
        ask: {
          q: { en: 'B, the lock’s rightful holder, writes. What does the storage do?', bn: 'লকের ন্যায্য ধারক B লেখে। স্টোরেজ কী করে?' },
          choices: [
            { say: { en: 'It accepts B’s write: B holds the lock', bn: 'B-র লেখা গ্রহণ করে: লক B-র' }, when: { lockedOut: null } },
            { say: { en: 'It refuses B: the holder is locked out', bn: 'B-কে ফিরিয়ে দেয়: ধারক আটকে যায়' }, when: { lockedOut: 'B' } },
          ],
        },
        claims: { verdict: 'safe', lockedOut: 'B', rejected: 'B' },
        why: {
          en: 'The storage refused B although B held the lock, and took A’s late write because it carried the ID the storage kept: final {final}, expected {expected}. Nothing acknowledged was lost, yet the balance is wrong for the lock’s holder, and B can never write. Equality on an ID is not an order: fence with a number that only grows.',
          bn: 'B লক ধরে থাকলেও স্টোরেজ তাকে ফিরিয়ে দিয়েছে, আর A-র দেরিতে আসা লেখা নিয়েছে, কারণ তাতে স্টোরেজের রাখা ID ছিল: চূড়ান্ত {final}, প্রত্যাশিত {expected}। স্বীকৃত কিছু হারায়নি, তবু লকের ধারকের কাছে ব্যালান্স ভুল, আর B কখনো লিখতে পারবে না। ID-র সমতা কোনো ক্রম নয়: এমন সংখ্যা দিয়ে ফেন্স করুন যা কেবল বাড়ে।',
        },
      },
      {
        set: { scenario: 'seed-gc-pause', fencing: 'token', retries: 3 },
        say: { en: 'Now a refused client starts over: it takes the lock again, re-reads and redoes its work.', bn: 'এবার প্রত্যাখ্যাত ক্লায়েন্ট আবার শুরু করে: আবার লক নেয়, আবার পড়ে, কাজটি আবার করে।' },
        ask: {
          q: { en: 'How does it end?', bn: 'শেষটা কেমন হয়?' },
          choices: [
            { say: { en: 'Both debits are applied', bn: 'দুটি ডেবিটই প্রয়োগ হয়' }, when: { allApplied: true } },
            { say: { en: 'Only B’s debit is applied', bn: 'শুধু B-র ডেবিট প্রয়োগ হয়' }, when: { allApplied: false } },
          ],
        },
        claims: { verdict: 'safe', rejected: 'A' },
        why: {
          en: 'A was refused once, started over from a fresh read and wrote {A.last}. Final {final}, expected {expected}: an error the client can act on, instead of silent loss.',
          bn: 'A একবার প্রত্যাখ্যাত হয়ে নতুন করে পড়া থেকে শুরু করেছে এবং লিখেছে {A.last}। চূড়ান্ত {final}, প্রত্যাশিত {expected}: নিঃশব্দ ক্ষতির বদলে এমন একটি ত্রুটি যার ভিত্তিতে ক্লায়েন্ট কিছু করতে পারে।',
        },
      },
      {
        set: { scenario: 'seed-gc-pause', fencing: 'token' },
        free: true,
        say: { en: 'Try it: switch Fencing between none and token, and drag the pause. With token, no pause loses an update here.', bn: 'নিজে চেষ্টা করুন: ফেন্সিং none ও token-এর মধ্যে বদলান, আর বিরতি টানুন। token থাকলে এখানে কোনো বিরতিতেই আপডেট হারায় না।' },
        claims: { verdict: 'safe' },
        scan: { param: 'pause', from: 0, to: 3000, step: 10, policies: ['token'] },
        claimsScan: { scanZero: 'token' },
        why: { en: 'At the start: final {final}, expected {expected}.', bn: 'শুরুতে: চূড়ান্ত {final}, প্রত্যাশিত {expected}।' },
      },
    ],
  },
  {
    title: { en: 'The write-only gap, and the fixes', bn: 'শুধু-লেখার ফাঁক, আর তার সমাধান' },
    beats: [
      {
        set: { scenario: 'write-only-gap', fencing: 'token' },
        say: {
          en: 'A pauses {pause} ms, just under the TTL of {ttl} ms, and the events interleave: B takes the lock, A wakes, B reads, A writes, B writes. The storage checks tokens on writes.',
          bn: 'A {pause} ms থমকে থাকে, {ttl} ms TTL-এর ঠিক নিচে, আর ঘটনাগুলো জড়িয়ে যায়: B লক নেয়, A জাগে, B পড়ে, A লেখে, B লেখে। স্টোরেজ লেখার সময় টোকেন যাচাই করে।',
        },
        ask: {
          q: { en: 'Token fencing is on. Is every update kept?', bn: 'টোকেন ফেন্সিং চালু। প্রতিটি আপডেট কি টিকে থাকে?' },
          choices: [
            { say: { en: 'Yes, token fencing catches it', bn: 'হ্যাঁ, টোকেন ফেন্সিং ধরে ফেলে' }, when: { verdict: 'safe' } },
            { say: { en: 'No: A’s update is lost', bn: 'না: A-র আপডেট হারায়' }, when: { lost: 'A' } },
            { say: { en: 'No: B’s update is lost', bn: 'না: B-র আপডেট হারায়' }, when: { lost: 'B' } },
          ],
        },
        claims: { verdict: 'lost-update', rejected: null },
        why: {
          en: 'A’s write with token {A.token} came before any write with token {B.token}, so the storage accepted it; then B wrote {B.value}, computed from a read taken before A’s write. Final {final}, expected {expected}: lost despite fencing.',
          bn: 'টোকেন {A.token}-সহ A-র লেখা টোকেন {B.token}-এর কোনো লেখার আগে এসেছে, তাই স্টোরেজ তা গ্রহণ করেছে; তারপর B লিখেছে {B.value}, A-র লেখার আগে নেওয়া পড়া থেকে হিসাব করে। চূড়ান্ত {final}, প্রত্যাশিত {expected}: ফেন্সিং সত্ত্বেও হারিয়েছে।',
        },
      },
      {
        set: { scenario: 'write-only-gap', fencing: 'first-touch' },
        say: { en: 'Fix one, first-touch: every access with a token, reads included, raises the highest token seen.', bn: 'প্রথম সমাধান, first-touch: টোকেনসহ প্রতিটি প্রবেশ, পড়াও, দেখা সর্বোচ্চ টোকেন বাড়িয়ে দেয়।' },
        ask: {
          q: { en: 'Who is refused now?', bn: 'এবার কে প্রত্যাখ্যাত হয়?' },
          choices: [
            { say: { en: 'A', bn: 'A' }, when: { rejected: 'A' } },
            { say: { en: 'B', bn: 'B' }, when: { rejected: 'B' } },
            { say: { en: 'Nobody', bn: 'কেউ না' }, when: { rejected: null } },
          ],
        },
        claims: { verdict: 'safe' },
        why: {
          en: 'B’s read with token {B.token} came first, so A’s write with token {A.token} was refused. Final {final}, expected {expected}.',
          bn: 'টোকেন {B.token}-সহ B-র পড়া আগে এসেছে, তাই টোকেন {A.token}-সহ A-র লেখা প্রত্যাখ্যাত হয়েছে। চূড়ান্ত {final}, প্রত্যাশিত {expected}।',
        },
      },
      {
        set: { scenario: 'write-only-gap', fencing: 'version', retries: 3 },
        say: { en: 'Fix two, version: a write is a compare-and-set on the version its client read. A refused client starts over.', bn: 'দ্বিতীয় সমাধান, version: প্রতিটি লেখা হলো ক্লায়েন্ট যে সংস্করণ পড়েছিল তার ওপর compare-and-set। প্রত্যাখ্যাত ক্লায়েন্ট আবার শুরু করে।' },
        ask: {
          q: { en: 'Who is refused now?', bn: 'এবার কে প্রত্যাখ্যাত হয়?' },
          choices: [
            { say: { en: 'A', bn: 'A' }, when: { rejected: 'A' } },
            { say: { en: 'B', bn: 'B' }, when: { rejected: 'B' } },
            { say: { en: 'Nobody', bn: 'কেউ না' }, when: { rejected: null } },
          ],
        },
        claims: { verdict: 'safe', allApplied: true },
        why: {
          en: 'A’s write changed the version after B had read, so B’s write was refused; B started over from a fresh read and wrote {B.last}. Final {final}, expected {expected}. No tokens needed: the storage checks what the writer saw.',
          bn: 'B পড়ার পর A-র লেখা সংস্করণ বদলে দিয়েছে, তাই B-র লেখা প্রত্যাখ্যাত হয়েছে; B নতুন করে পড়ে আবার লিখেছে {B.last}। চূড়ান্ত {final}, প্রত্যাশিত {expected}। টোকেন লাগেনি: লেখক কী দেখেছিল, স্টোরেজ সেটিই যাচাই করে।',
        },
      },
      {
        set: { scenario: 'write-only-gap', fencing: 'token' },
        free: true,
        say: { en: 'Try it: drag the pause around the TTL under each fencing policy. Token loses A’s update only in a thin band; first-touch and version never lose one here.', bn: 'নিজে চেষ্টা করুন: প্রতিটি ফেন্সিং নীতিতে বিরতিকে TTL-এর আশপাশে টানুন। token শুধু একটি সরু পরিসরে A-র আপডেট হারায়; first-touch ও version এখানে কখনো হারায় না।' },
        claims: { lost: 'A' },
        scan: { param: 'pause', from: 0, to: 3000, step: 5, policies: ['token', 'first-touch', 'version'] },
        claimsScan: { scanSome: 'token', scanZero: ['first-touch', 'version'] },
        why: { en: 'At the start: final {final}, expected {expected}.', bn: 'শুরুতে: চূড়ান্ত {final}, প্রত্যাশিত {expected}।' },
      },
    ],
  },
  {
    title: { en: 'The Redlock debate', bn: 'Redlock বিতর্ক' },
    beats: [
      {
        set: { scenario: 'redlock-pause-before-check' },
        say: {
          en: 'Redlock asks five independent redis nodes and holds the lock on a majority. All five grant A, but A is frozen for {pause} ms while their OKs wait in its socket buffer. A Redlock client then checks the validity: the TTL minus the time acquiring took.',
          bn: 'Redlock পাঁচটি স্বাধীন redis নোডকে জিজ্ঞেস করে এবং সংখ্যাগরিষ্ঠ পেলে লক ধরে। পাঁচটিই A-কে অনুমোদন দেয়, কিন্তু A {pause} ms থমকে থাকে, আর তাদের OK তার সকেট বাফারে অপেক্ষা করে। এরপর Redlock ক্লায়েন্ট বৈধতা যাচাই করে: TTL থেকে লক নিতে লাগা সময় বাদ।',
        },
        ask: {
          q: { en: 'Does A use the lock it was granted while frozen?', bn: 'থমকে থাকার সময় পাওয়া লক কি A ব্যবহার করে?' },
          choices: [
            { say: { en: 'No: it gives up, retries after B, and both debits land', bn: 'না: ছেড়ে দেয়, B-র পরে আবার চেষ্টা করে, আর দুটি ডেবিটই টিকে যায়' }, when: { firstWrite: 'B', allApplied: true } },
            { say: { en: 'Yes, and an update is lost', bn: 'হ্যাঁ, এবং একটি আপডেট হারায়' }, when: { verdict: 'lost-update' } },
          ],
        },
        claims: { verdict: 'safe' },
        why: {
          en: 'The validity was negative, so A unlocked every node and tried again after B had written {B.value}; A then wrote {A.value}. Final {final}, expected {expected}. antirez is right about this placement of the pause.',
          bn: 'বৈধতা ঋণাত্মক ছিল, তাই A সব নোড আনলক করে B {B.value} লেখার পর আবার চেষ্টা করেছে; তারপর A লিখেছে {A.value}। চূড়ান্ত {final}, প্রত্যাশিত {expected}। বিরতির এই অবস্থানে antirez ঠিক।',
        },
      },
      {
        set: { scenario: 'redlock-pause-before-check', naive: true },
        say: { en: 'The same schedule, but a naive client trusts the OKs without checking how long acquiring took.', bn: 'একই সময়সূচি, কিন্তু একটি সরল ক্লায়েন্ট লক নিতে কত সময় লেগেছে তা যাচাই না করেই OK-গুলো বিশ্বাস করে।' },
        ask: {
          q: { en: 'How does it end?', bn: 'শেষটা কেমন হয়?' },
          choices: [
            { say: { en: 'Both debits are applied', bn: 'দুটি ডেবিটই প্রয়োগ হয়' }, when: { allApplied: true } },
            { say: { en: 'A’s update is lost', bn: 'A-র আপডেট হারায়' }, when: { lost: 'A' } },
            { say: { en: 'B’s update is lost', bn: 'B-র আপডেট হারায়' }, when: { lost: 'B' } },
          ],
        },
        claims: { verdict: 'lost-update' },
        why: {
          en: 'A wrote {A.value} after its keys had expired, and B, holding the lock, overwrote it with {B.value}. Final {final}, expected {expected}. The validity check is what saved the compliant client.',
          bn: 'চাবিগুলোর মেয়াদ ফুরোনোর পর A লিখেছে {A.value}, আর লক-ধারী B তা মুছে লিখেছে {B.value}। চূড়ান্ত {final}, প্রত্যাশিত {expected}। নিয়ম-মানা ক্লায়েন্টকে বাঁচিয়েছিল বৈধতা যাচাই।',
        },
      },
      {
        set: { scenario: 'redlock-pause-after-check' },
        say: { en: 'Now A acquires with time to spare, checks the validity, and the pause of {pause} ms begins right after the check.', bn: 'এবার A হাতে সময় রেখে লক নেয়, বৈধতা যাচাই করে, আর যাচাইয়ের ঠিক পরে {pause} ms-এর বিরতি শুরু হয়।' },
        ask: {
          q: { en: 'Is an update lost?', bn: 'কোনো আপডেট কি হারায়?' },
          choices: [
            { say: { en: 'No: the check protects A', bn: 'না: যাচাই A-কে রক্ষা করে' }, when: { verdict: 'safe' } },
            { say: { en: 'Yes: B’s update is lost', bn: 'হ্যাঁ: B-র আপডেট হারায়' }, when: { lost: 'B' } },
          ],
        },
        claims: { rejected: null },
        why: {
          en: 'B wrote {B.value}; A woke and wrote {A.value}. Final {final}, expected {expected}. Both authors agree: no lock algorithm protects the gap between the check and the write. Only the storage can, and Redlock has no token to give it.',
          bn: 'B লিখেছে {B.value}; A জেগে লিখেছে {A.value}। চূড়ান্ত {final}, প্রত্যাশিত {expected}। দুই লেখকই একমত: যাচাই আর লেখার মাঝের ফাঁক কোনো লক অ্যালগরিদম রক্ষা করে না। পারে শুধু স্টোরেজ, আর Redlock-এর দেওয়ার মতো কোনো টোকেন নেই।',
        },
      },
      {
        set: { scenario: 'redlock-clock-jump' },
        say: {
          en: 'Kleppmann’s clock case: a partition lets A reach nodes one to three and B nodes three to five. A holds the first three; then node three’s wall clock jumps forward and A’s key there expires early.',
          bn: 'ক্লেপম্যানের ঘড়ির উদাহরণ: একটি বিভাজনে A প্রথম তিনটি নোডে পৌঁছাতে পারে, B তৃতীয় থেকে পঞ্চম নোডে। A প্রথম তিনটি ধরে রাখে; তারপর তৃতীয় নোডের দেয়াল-ঘড়ি সামনে লাফ দেয় এবং সেখানে A-র চাবির মেয়াদ আগেই ফুরিয়ে যায়।',
        },
        ask: {
          q: { en: 'Do two clients believe they hold the lock at the same time?', bn: 'দুটি ক্লায়েন্ট কি একই সময়ে নিজেকে লকের ধারক মনে করে?' },
          choices: [
            { say: { en: 'Yes: two majorities', bn: 'হ্যাঁ: দুটি সংখ্যাগরিষ্ঠতা' }, when: { overlap: true } },
            { say: { en: 'No: only one at a time', bn: 'না: একবারে একজনই' }, when: { overlap: false } },
          ],
        },
        claims: { lost: 'B' },
        why: {
          en: 'B won nodes three to five while A still held one to three: two holders. B wrote {B.value}, A wrote {A.value}; final {final}, expected {expected}.',
          bn: 'A যখন প্রথম তিনটি নোড ধরে আছে, B তখন তৃতীয় থেকে পঞ্চম নোড জিতেছে: দুজন ধারক। B লিখেছে {B.value}, A লিখেছে {A.value}; চূড়ান্ত {final}, প্রত্যাশিত {expected}।',
        },
      },
      {
        set: { scenario: 'redlock-clock-jump-monotonic' },
        say: { en: 'antirez’s reply: expire keys on a monotonic clock, which a wall-clock jump does not move. Same partition, same jump.', bn: 'antirez-এর জবাব: চাবির মেয়াদ মাপুন মনোটনিক ঘড়িতে, যাকে দেয়াল-ঘড়ির লাফ নড়ায় না। একই বিভাজন, একই লাফ।' },
        ask: {
          q: { en: 'Do two clients believe they hold the lock at the same time?', bn: 'দুটি ক্লায়েন্ট কি একই সময়ে নিজেকে লকের ধারক মনে করে?' },
          choices: [
            { say: { en: 'Yes: two majorities', bn: 'হ্যাঁ: দুটি সংখ্যাগরিষ্ঠতা' }, when: { overlap: true } },
            { say: { en: 'No: only one at a time', bn: 'না: একবারে একজনই' }, when: { overlap: false } },
          ],
        },
        claims: { verdict: 'safe', allApplied: true },
        why: {
          en: 'Node three kept A’s key, so B could not win a majority until A was done. Final {final}, expected {expected}. Each side is right about a different instant.',
          bn: 'তৃতীয় নোড A-র চাবি রেখে দিয়েছে, তাই A-র কাজ শেষ না হওয়া পর্যন্ত B সংখ্যাগরিষ্ঠতা পায়নি। চূড়ান্ত {final}, প্রত্যাশিত {expected}। প্রত্যেক পক্ষ ভিন্ন ভিন্ন মুহূর্তের ব্যাপারে ঠিক।',
        },
      },
      {
        set: { scenario: 'redlock-crash-restart' },
        say: { en: 'The same partition, but node three crashes before saving A’s key and restarts empty {restart} ms later.', bn: 'একই বিভাজন, কিন্তু তৃতীয় নোড A-র চাবি সংরক্ষণের আগেই বিকল হয় এবং {restart} ms পরে খালি অবস্থায় আবার চালু হয়।' },
        ask: {
          q: { en: 'Is an update lost?', bn: 'কোনো আপডেট কি হারায়?' },
          choices: [
            { say: { en: 'No', bn: 'না' }, when: { verdict: 'safe' } },
            { say: { en: 'Yes: B’s update is lost', bn: 'হ্যাঁ: B-র আপডেট হারায়' }, when: { lost: 'B' } },
          ],
        },
        claims: { overlap: true },
        why: {
          en: 'The restarted node forgot A’s key and granted B a majority. Final {final}, expected {expected}. The Redis docs’ answer is to delay a restart by a TTL — try it next.',
          bn: 'পুনরায় চালু নোড A-র চাবি ভুলে গিয়ে B-কে সংখ্যাগরিষ্ঠতা দিয়েছে। চূড়ান্ত {final}, প্রত্যাশিত {expected}। Redis ডকুমেন্টেশনের উত্তর: পুনরায় চালু হওয়া এক TTL পিছিয়ে দিন — পরের ধাপে চেষ্টা করুন।',
        },
      },
      {
        set: { scenario: 'redlock-crash-restart' },
        free: true,
        say: { en: 'Try it: drag the restart delay up to the TTL and beyond, and switch Fencing to version or owner, which catch it at any delay.', bn: 'নিজে চেষ্টা করুন: পুনরায় চালুর বিলম্ব TTL পর্যন্ত ও তার বেশি টানুন, আর ফেন্সিং version বা owner-এ বদলান, যা যেকোনো বিলম্বে এটি ধরে।' },
        claims: { lost: 'B' },
        why: { en: 'At the start: final {final}, expected {expected}.', bn: 'শুরুতে: চূড়ান্ত {final}, প্রত্যাশিত {expected}।' },
      },
    ],
  },
  {
    title: { en: 'The ratio', bn: 'অনুপাত' },
    beats: [
      {
        set: { scenario: 'seed-gc-pause', fencing: 'none', pause: 50 },
        say: { en: 'A more usual pause: {pause} ms against a TTL of {ttl} ms.', bn: 'আরও সাধারণ একটি বিরতি: {ttl} ms TTL-এর বিপরীতে {pause} ms।' },
        ask: {
          q: { en: 'No fencing. Is an update lost?', bn: 'ফেন্সিং নেই। কোনো আপডেট কি হারায়?' },
          choices: [
            { say: { en: 'No', bn: 'না' }, when: { verdict: 'safe' } },
            { say: { en: 'Yes', bn: 'হ্যাঁ' }, when: { verdict: 'lost-update' } },
          ],
        },
        claims: { allApplied: true },
        why: { en: 'Final {final}, expected {expected}: the pause ended inside the lease. Most pauses do.', bn: 'চূড়ান্ত {final}, প্রত্যাশিত {expected}: বিরতি লিজের ভেতরেই শেষ হয়েছে। বেশিরভাগ বিরতিই তাই হয়।' },
      },
      {
        set: { scenario: 'seed-gc-pause', fencing: 'none' },
        scan: { param: 'pause', from: 0, to: 3000, step: 10, policies: ['none', 'token', 'first-touch'] },
        say: {
          en: 'The lab ran this schedule for every pause from {scan.from} to {scan.to} ms in steps of {scan.step} ms ({scan.n} runs) at a TTL of {ttl} ms. Without fencing, {scan.none} of them lose an update.',
          bn: 'ল্যাব এই সময়সূচি {ttl} ms TTL-এ {scan.from} থেকে {scan.to} ms পর্যন্ত প্রতি {scan.step} ms অন্তর প্রতিটি বিরতিতে চালিয়েছে ({scan.n}টি রান)। ফেন্সিং ছাড়া তাদের {scan.none}টিতে একটি আপডেট হারায়।',
        },
        ask: {
          q: { en: 'With first-touch fencing, how many of those runs lose an update?', bn: 'first-touch ফেন্সিং থাকলে ওই রানগুলোর কয়টিতে আপডেট হারায়?' },
          choices: [
            { say: { en: 'None of them', bn: 'একটিতেও না' }, when: { scanZero: 'first-touch' } },
            { say: { en: 'Fewer, but some', bn: 'কম, তবে কয়েকটিতে' }, when: { scanSome: 'first-touch' } },
          ],
        },
        claims: { scanSome: 'none' },
        why: {
          en: 'With first-touch: {scan.first-touch}; with token: {scan.token}. Fencing does not make long pauses rarer; it makes them harmless — only B’s or A’s progress suffers, never the data.',
          bn: 'first-touch-এ: {scan.first-touch}; token-এ: {scan.token}। ফেন্সিং লম্বা বিরতি কমায় না; সেগুলোকে ক্ষতিহীন করে — ভোগে শুধু অগ্রগতি, ডেটা কখনো নয়।',
        },
      },
      {
        // The reader asks the lab to find the failure: the "Find a failure" panel, its rows set to this grid.
        set: { scenario: 'seed-gc-pause', fencing: 'first-touch' },
        search: { vary: [['ttl', 100, 1000, 50], ['pause', 0, 2000, 50]], policies: ['none', 'first-touch'] },
        free: true,
        say: {
          en: 'The scan tried one line of pauses. The lab can search a whole grid for you: every TTL from {search.ttl.from} to {search.ttl.to} ms in steps of {search.ttl.step} ms against every pause from {search.pause.from} to {search.pause.to} ms in steps of {search.pause.step} ms — {search.n} combinations — and show the smallest one that loses an update. Here the storage checks first-touch tokens.',
          bn: 'স্ক্যানটি বিরতির একটি সারি পরখ করেছিল। ল্যাব আপনার হয়ে পুরো একটি গ্রিড খুঁজতে পারে: {search.ttl.from} থেকে {search.ttl.to} ms পর্যন্ত প্রতি {search.ttl.step} ms অন্তর প্রতিটি TTL, আর {search.pause.from} থেকে {search.pause.to} ms পর্যন্ত প্রতি {search.pause.step} ms অন্তর প্রতিটি বিরতি — {search.n}টি সমন্বয় — এবং যে সবচেয়ে ছোট সমন্বয়ে আপডেট হারায় সেটি দেখাতে পারে। এখানে স্টোরেজ first-touch টোকেন যাচাই করে।',
        },
        ask: {
          q: { en: 'Before you run it: will the search find a failure with first-touch fencing?', bn: 'চালানোর আগে বলুন: first-touch ফেন্সিং থাকলে খোঁজে কি কোনো ব্যর্থতা মিলবে?' },
          choices: [
            { say: { en: 'No: no combination loses an update', bn: 'না: কোনো সমন্বয়েই আপডেট হারায় না' }, when: { searchZero: 'first-touch' } },
            { say: { en: 'Yes: some combination loses one', bn: 'হ্যাঁ: কোনো একটি সমন্বয়ে হারায়' }, when: { searchSome: 'first-touch' } },
          ],
        },
        claims: { verdict: 'safe', searchSome: 'none' },
        why: {
          en: 'Run it: open “Find a failure” under the diagram. With first-touch, none of the {search.n} combinations loses an update. Then set Fencing to none and search again: the smallest failure is a TTL of {search.none.ttl} ms with a pause of {search.none.pause} ms — a pause just longer than the lease, opened in the diagram. The search proves the grid’s points, not the values between them.',
          bn: 'চালিয়ে দেখুন: ডায়াগ্রামের নিচে “ব্যর্থতা খুঁজুন” খুলুন। first-touch থাকলে {search.n}টি সমন্বয়ের কোনোটিতেই আপডেট হারায় না। তারপর ফেন্সিং none করে আবার খুঁজুন: সবচেয়ে ছোট ব্যর্থতা হলো {search.none.ttl} ms TTL আর {search.none.pause} ms বিরতি — লিজের চেয়ে সামান্য লম্বা একটি বিরতি, ডায়াগ্রামে খোলা। খোঁজ গ্রিডের বিন্দুগুলো প্রমাণ করে, মাঝের মানগুলো নয়।',
        },
      },
      {
        set: { scenario: 'seed-gc-pause', fencing: 'none' },
        given: { gc: 50, ttlReal: 30 },
        say: {
          en: 'In reality the pause would be a {gc} ms GC and the TTL {ttlReal} s: the ratio differs, the structure is the same. Pause times have heavy tails, so a pause longer than the lease is rare, not never — and with many operations a day, rare happens.',
          bn: 'বাস্তবে বিরতি হতো {gc} ms-এর একটি GC আর TTL {ttlReal} s: অনুপাত আলাদা, গঠন একই। বিরতির সময়ের লেজ ভারী, তাই লিজের চেয়ে লম্বা বিরতি বিরল, অসম্ভব নয় — আর দিনে অনেক অপারেশনে বিরলও ঘটে।',
        },
        why: {
          en: 'To put numbers on it for your pauses and TTL, run leaselab estimate on the command line (see the README). Here, the seed’s run as a reminder: final {final}, expected {expected}.',
          bn: 'আপনার বিরতি ও TTL-এর জন্য সংখ্যা পেতে কমান্ড লাইনে leaselab estimate চালান (README দেখুন)। এখানে, মনে করিয়ে দিতে বীজ-উদাহরণের রান: চূড়ান্ত {final}, প্রত্যাশিত {expected}।',
        },
        claims: { lost: 'B' },
      },
      {
        set: { scenario: 'seed-gc-pause', fencing: 'first-touch' },
        free: true,
        say: { en: 'Try it: any TTL, any pause. With first-touch fencing the verdict stays safe; switch it off to see what it was buying.', bn: 'নিজে চেষ্টা করুন: যেকোনো TTL, যেকোনো বিরতি। first-touch ফেন্সিং থাকলে রায় নিরাপদই থাকে; বন্ধ করে দেখুন এটি কী কিনে দিচ্ছিল।' },
        claims: { verdict: 'safe' },
        why: { en: 'At the start: final {final}, expected {expected}.', bn: 'শুরুতে: চূড়ান্ত {final}, প্রত্যাশিত {expected}।' },
      },
    ],
  },
  {
    title: { en: 'The lock you actually run', bn: 'যে লক আপনি সত্যিই চালান' },
    beats: [
      // (the lock services' beats come first; the storage that fences closes the chapter)
      {
        set: { scenario: 'consul-lock-delay' },
        say: {
          en: 'Consul’s lock is a key held by a session. Here the session TTL is {ttl} ms — a lower bound: Consul may invalidate the session up to twice as late. A acquires the key (LockIndex {A.token}), reads {A.read} and freezes for {pause} ms; its renewals freeze with it. When a session goes, Consul keeps its keys closed for the lock-delay, {lockdelay} ms.',
          bn: 'Consul-এর লক হলো একটি সেশনের ধরে রাখা কী। এখানে সেশনের TTL {ttl} ms — একটি নিম্নসীমা: Consul সেশনটি বাতিল করতে পারে দ্বিগুণ দেরিতেও। A কী-টি দখল করে (LockIndex {A.token}), {A.read} পড়ে আর {pause} ms থমকে যায়; তার নবায়নও থমকে যায়। সেশন গেলে Consul তার কী lock-delay, {lockdelay} ms, পর্যন্ত বন্ধ রাখে।',
        },
        ask: {
          q: { en: 'The storage checks nothing. Does B’s update survive A’s late write?', bn: 'স্টোরেজ কিছুই যাচাই করে না। A-র দেরির লেখার পরে B-র আপডেট কি টিকে থাকে?' },
          choices: [
            { say: { en: 'Yes: the lock-delay keeps B out until A has written', bn: 'হ্যাঁ: A লেখা শেষ না করা পর্যন্ত lock-delay B-কে বাইরে রাখে' }, when: { lost: null } },
            { say: { en: 'No: B takes the lock and A overwrites its update', bn: 'না: B লক নেয় আর A তার আপডেটের ওপর লিখে দেয়' }, when: { lost: 'B' } },
          ],
        },
        claims: { verdict: 'safe', firstWrite: 'A' },
        why: {
          en: 'Consul invalidated A’s session at {A.leaseEnd} ms, not at {ttl} ms; the lock-delay then held B off, and A woke and wrote {A.value} before B could acquire. B took the lock at {B.granted} ms with LockIndex {B.token} and wrote {B.value}: final {final}, expected {expected}. Safe by timing alone — A wrote long after its TTL, and nothing checked it.',
          bn: 'Consul A-র সেশন বাতিল করেছে {A.leaseEnd} ms-এ, {ttl} ms-এ নয়; তারপর lock-delay B-কে আটকে রাখে, আর B দখল পাওয়ার আগেই A জেগে {A.value} লেখে। B {B.granted} ms-এ LockIndex {B.token} নিয়ে লক পায় আর {B.value} লেখে: চূড়ান্ত {final}, প্রত্যাশিত {expected}। নিরাপদ কেবল সময়ের জোরে — A লিখেছে তার TTL-এর অনেক পরে, আর কিছুই তা যাচাই করেনি।',
        },
      },
      {
        set: { scenario: 'consul-lock-delay-exceeded' },
        say: {
          en: 'The same lock, but now A freezes for {pause} ms: longer than its session’s life and the lock-delay together.',
          bn: 'একই লক, কিন্তু এবার A থমকে থাকে {pause} ms: তার সেশনের আয়ু আর lock-delay মিলিয়ে যত, তার চেয়ে বেশি।',
        },
        ask: {
          q: { en: 'The storage still checks nothing. What happens to B’s update when A wakes?', bn: 'স্টোরেজ এখনো কিছুই যাচাই করে না। A জেগে উঠলে B-র আপডেটের কী হয়?' },
          choices: [
            { say: { en: 'It is lost: A writes over it', bn: 'হারিয়ে যায়: A তার ওপর লিখে দেয়' }, when: { lost: 'B' } },
            { say: { en: 'It survives: Consul refuses A’s write', bn: 'টিকে থাকে: Consul A-র লেখা ফিরিয়ে দেয়' }, when: { lost: null } },
          ],
        },
        claims: { verdict: 'lost-update', firstWrite: 'B', overlap: true },
        why: {
          en: 'B acquired at {B.granted} ms with LockIndex {B.token} and wrote {B.value}; A woke and wrote {A.value} with LockIndex {A.token}, before a renewal could tell it the session was gone: final {final}, expected {expected}. Consul’s docs ask the resource to check the sequencer — switch Fencing to token: the storage keeps the highest LockIndex it has seen and refuses A.',
          bn: 'B {B.granted} ms-এ LockIndex {B.token} নিয়ে দখল পায় আর {B.value} লেখে; A জেগে LockIndex {A.token} নিয়ে {A.value} লেখে, কোনো নবায়ন তাকে সেশন হারানোর খবর দেওয়ার আগেই: চূড়ান্ত {final}, প্রত্যাশিত {expected}। Consul-এর ডকুমেন্টেশন রিসোর্সকে সিকোয়েন্সার যাচাই করতে বলে — Fencing-কে token করুন: স্টোরেজ দেখা সর্বোচ্চ LockIndex মনে রাখে আর A-কে ফিরিয়ে দেয়।',
        },
      },
      {
        set: { scenario: 'k8s-lease-slow-renew', naive: true },
        say: {
          en: 'Kubernetes leader election (client-go) keeps a Lease object, with its real defaults: lease duration {lease} ms, renew deadline {renew} ms, retry period {retry} ms. A leads and works for {work} ms. B polls, and judges the lease over {lease} ms after it last saw the record change, by its own clock. Then A’s API server stops answering A, and A’s renew call hangs — for up to the request timeout, {timeout} ms.',
          bn: 'Kubernetes-এর লিডার নির্বাচন (client-go) একটি Lease অবজেক্ট রাখে, আসল ডিফল্ট মান নিয়ে: লিজের মেয়াদ {lease} ms, নবায়নের শেষসীমা {renew} ms, রিট্রাই পিরিয়ড {retry} ms। A নেতৃত্ব দেয় আর {work} ms কাজ করে। B দেখতে থাকে, আর রেকর্ডের শেষ বদল দেখার {lease} ms পরে, নিজের ঘড়িতে, লিজ শেষ ধরে নেয়। তারপর A-র API সার্ভার A-কে আর উত্তর দেয় না, আর A-র নবায়নের কল আটকে থাকে — রিকোয়েস্ট টাইমআউট, {timeout} ms, পর্যন্ত।',
        },
        ask: {
          q: { en: 'This client-go checks the renew deadline only between calls. When its work is done, A checks that it still leads, then writes. What happens to B’s update?', bn: 'এই client-go নবায়নের শেষসীমা দেখে কেবল দুই কলের মাঝে। কাজ শেষে A যাচাই করে যে সে এখনো নেতা, তারপর লেখে। B-র আপডেটের কী হয়?' },
          choices: [
            { say: { en: 'It is lost: A still believes it leads', bn: 'হারিয়ে যায়: A এখনো নিজেকে নেতা ভাবে' }, when: { lost: 'B' } },
            { say: { en: 'It survives: A’s check fails', bn: 'টিকে থাকে: A-র যাচাই ব্যর্থ হয়' }, when: { lost: null } },
          ],
        },
        claims: { verdict: 'lost-update', firstWrite: 'B', overlap: true },
        why: {
          en: 'B took over at {B.granted} ms and wrote {B.value}. A’s renew deadline had passed too, but its hung call had not returned, so A still believed it led: its check passed and it wrote {A.value}. Final {final}, expected {expected}: two leaders at once, as the Kubernetes issue reported. client-go hands out no token, so Fencing token changes nothing here; a storage that checks a version, as Kubernetes objects carry one, refuses A — try version.',
          bn: 'B {B.granted} ms-এ দায়িত্ব নেয় আর {B.value} লেখে। A-র নবায়নের শেষসীমাও পেরিয়ে গিয়েছিল, কিন্তু তার আটকে থাকা কল ফেরেনি, তাই A তখনো নিজেকে নেতা ভাবে: তার যাচাই সফল হয় আর সে {A.value} লেখে। চূড়ান্ত {final}, প্রত্যাশিত {expected}: একই সময়ে দুই নেতা, Kubernetes-এর ইস্যুতে যেমন জানানো হয়েছিল। client-go কোনো টোকেন দেয় না, তাই Fencing token এখানে কিছুই বদলায় না; যে স্টোরেজ ভার্সন যাচাই করে — Kubernetes অবজেক্টেও যেমন একটি থাকে — সে A-কে ফিরিয়ে দেয়: version চেষ্টা করুন।',
        },
      },
      {
        set: { scenario: 'dynamodb-heartbeat-pause' },
        say: {
          en: 'The DynamoDB lock client keeps the lock as an item in a table, and no server ever expires it. The item carries a record version number (RVN), a random GUID that each heartbeat changes, every {heartbeat} ms. A takes the item, reads {A.read} and freezes for {pause} ms; its heartbeats freeze with it. B finds A’s item and times its RVN on its own clock: unchanged for longer than the lease, {ttl} ms, and B may take the item over.',
          bn: 'DynamoDB lock client লক রাখে একটি টেবিলের আইটেম হিসেবে, আর কোনো সার্ভার কখনো তার মেয়াদ শেষ করে না। আইটেমে থাকে একটি রেকর্ড ভার্সন নম্বর (RVN), একটি এলোমেলো GUID, যা প্রতিটি হার্টবিট বদলে দেয়, প্রতি {heartbeat} ms-এ। A আইটেমটি নেয়, {A.read} পড়ে আর {pause} ms থমকে যায়; তার হার্টবিটও থমকে যায়। B A-র আইটেম দেখে নিজের ঘড়িতে তার RVN-এর সময় গোনে: লিজ, {ttl} ms, পেরিয়েও না বদলালে B আইটেমটি দখল করতে পারে।',
        },
        ask: {
          q: { en: 'The storage checks nothing. What happens to B’s update when A wakes?', bn: 'স্টোরেজ কিছুই যাচাই করে না। A জেগে উঠলে B-র আপডেটের কী হয়?' },
          choices: [
            { say: { en: 'It is lost: nobody told A its item was taken', bn: 'হারিয়ে যায়: আইটেম বেদখল হয়েছে, A-কে কেউ জানায়নি' }, when: { lost: 'B' } },
            { say: { en: 'It survives: DynamoDB expired A’s lock', bn: 'টিকে থাকে: DynamoDB A-র লকের মেয়াদ শেষ করেছে' }, when: { lost: null } },
          ],
        },
        claims: { verdict: 'lost-update', firstWrite: 'B', overlap: true },
        why: {
          en: 'B took the item over at {B.granted} ms and wrote {B.value}; A woke, not told, and wrote {A.value}: final {final}, expected {expected}. The RVN cannot fence: random numbers have no order, so a storage that keeps the highest token is right or wrong by the draw. A write conditional on the data’s own version number refuses A whatever the draw — switch Fencing to version.',
          bn: 'B {B.granted} ms-এ আইটেমটি দখল করে আর {B.value} লেখে; খবর না-পাওয়া A জেগে {A.value} লেখে: চূড়ান্ত {final}, প্রত্যাশিত {expected}। RVN ফেন্স করতে পারে না: এলোমেলো সংখ্যার কোনো ক্রম নেই, তাই সর্বোচ্চ টোকেন মনে রাখা স্টোরেজ ঠিক বা ভুল হয় ভাগ্যের জোরে। ডেটার নিজের ভার্সন নম্বরের ওপর শর্তসাপেক্ষ লেখা A-কে ফিরিয়ে দেয়, ভাগ্য যা-ই হোক — Fencing-কে version করুন।',
        },
      },
      {
        set: { scenario: 'hazelcast-fenced-lock' },
        say: {
          en: 'Hazelcast’s FencedLock lives on a CP session kept alive by heartbeats; here the session TTL is {ttl} ms (Hazelcast’s default is five minutes). A takes the lock — lockAndGetFence() returns {A.token} — reads {A.read} and freezes for {pause} ms; its heartbeats freeze with it. B’s lock call waits on the CP group.',
          bn: 'Hazelcast-এর FencedLock থাকে হার্টবিটে টিকে থাকা একটি CP সেশনে; এখানে সেশন TTL {ttl} ms (Hazelcast-এর ডিফল্ট পাঁচ মিনিট)। A লক নেয় — lockAndGetFence() ফেরায় {A.token} — {A.read} পড়ে আর {pause} ms থমকে যায়; তার হার্টবিটও থমকে যায়। B-র lock কল CP গ্রুপে অপেক্ষা করে।',
        },
        ask: {
          q: { en: 'The storage checks nothing. When A wakes and writes, what happens to B’s update?', bn: 'স্টোরেজ কিছুই যাচাই করে না। A জেগে লিখলে B-র আপডেটের কী হয়?' },
          choices: [
            { say: { en: 'It is lost: A’s session was closed, B wrote, and A overwrote it', bn: 'হারিয়ে যায়: A-র সেশন বন্ধ হয়েছিল, B লিখেছিল, আর A তার ওপর লিখে দেয়' }, when: { lost: 'B' } },
            { say: { en: 'It survives: Hazelcast refuses A’s write', bn: 'টিকে থাকে: Hazelcast A-র লেখা ফিরিয়ে দেয়' }, when: { lost: null } },
          ],
        },
        claims: { verdict: 'lost-update', firstWrite: 'B', overlap: true },
        why: {
          en: 'No heartbeat came for the session TTL, so the CP group closed A’s session and B’s waiting call returned fence {B.token}; B wrote {B.value}, and A, not yet told, wrote {A.value}: final {final}, expected {expected}. Hazelcast hands out the fence; only a storage that checks it refuses A — switch Fencing to token and see.',
          bn: 'সেশন TTL ধরে কোনো হার্টবিট আসেনি, তাই CP গ্রুপ A-র সেশন বন্ধ করে আর B-র অপেক্ষমাণ কল ফেন্স {B.token} নিয়ে ফেরে; B লেখে {B.value}, আর তখনও খবর না-পাওয়া A লেখে {A.value}: চূড়ান্ত {final}, প্রত্যাশিত {expected}। ফেন্স দেয় Hazelcast; A-কে ফেরাতে পারে কেবল সেই স্টোরেজ যে তা যাচাই করে — Fencing-কে token করে দেখুন।',
        },
      },
      {
        // The safety table (matrix.html): the reader predicts a whole row, then sees it from the table the
        // build shipped (pkg/matrix.json), under the lab's run of one of its cells.
        set: { scenario: 'etcd-lease-pause' },
        table: { service: 'etcd', fencing: 'none' },
        say: {
          en: 'One service, one fault, one run: etcd’s lease with a {ttl} ms TTL, and A frozen for {pause} ms. The safety table asks it of every lock service at once: each one’s base scenario with each kind of fault injected at every point of a grid — every moment, every length up to a multiple of the service’s own lease — searched exactly.',
          bn: 'একটি সার্ভিস, একটি ত্রুটি, একটি রান: {ttl} ms TTL-এর etcd লিজ, আর A থমকে থাকে {pause} ms। নিরাপত্তা-সারণি এই প্রশ্ন একসঙ্গে প্রতিটি লক সার্ভিসকে করে: প্রত্যেকের মূল পরিস্থিতিতে প্রতিটি ধরনের ত্রুটি একটি গ্রিডের প্রতিটি বিন্দুতে ঢুকিয়ে — প্রতিটি মুহূর্তে, সার্ভিসের নিজের লিজের এক গুণিতক পর্যন্ত প্রতিটি দৈর্ঘ্যে — নিখুঁতভাবে খুঁজে।',
        },
        ask: {
          q: {
            en: 'Now etcd’s whole row, unfenced. Besides a pause of the holder, can a slow link to etcd — every message late, each way — lose an update?',
            bn: 'এবার etcd-এর পুরো সারি, ফেন্সিং ছাড়া। ধারকের বিরতি ছাড়াও, etcd-এর সঙ্গে ধীর সংযোগ — প্রতিটি বার্তা দেরিতে, দুই দিকেই — কি একটি আপডেট হারাতে পারে?',
          },
          choices: [
            { say: { en: 'No: only a pause; the keepalives outlast a slow link', bn: 'না: শুধু বিরতি; কিপঅ্যালাইভ ধীর সংযোগও পেরিয়ে যায়' }, when: { tableUnsafe: 'pause', tableSafe: 'lock-delay' } },
            { say: { en: 'Yes: a slow enough link loses one too', bn: 'হ্যাঁ: যথেষ্ট ধীর সংযোগেও হারায়' }, when: { tableUnsafe: ['pause', 'lock-delay'] } },
            { say: { en: 'Neither: etcd’s keepalive saves it from both', bn: 'কোনোটিই না: etcd-এর কিপঅ্যালাইভ দুটো থেকেই বাঁচায়' }, when: { tableSafe: ['pause', 'lock-delay'] } },
          ],
        },
        claims: { verdict: 'lost-update', tableUnsafe: 'pause', tableSafe: 'store-delay' },
        why: {
          en: 'The lab’s run: final {final}, expected {expected}. The table’s etcd row, unfenced: {table.unsafe} of its {table.n} faults lose an update. The smallest pause that does: {table.pause.freeze_A_for} ms, striking at {table.pause.freeze_A_at} ms. A slow link too: with every message {table.lock-delay.delay_lock} ms late each way, A’s keepalives land after its lease has expired, and B is granted the lock. A write held on its way to the storage does not: A keeps its lease alive while it works. The whole table, every service and every fence, is on the safety table’s page.',
          bn: 'ল্যাবের রান: চূড়ান্ত {final}, প্রত্যাশিত {expected}। সারণিতে etcd-এর সারি, ফেন্সিং ছাড়া: {table.n}টি ত্রুটির {table.unsafe}টিতে আপডেট হারায়। সবচেয়ে ছোট যে বিরতিতে হারায়: {table.pause.freeze_A_for} ms, {table.pause.freeze_A_at} ms-এ শুরু। ধীর সংযোগেও: প্রতিটি বার্তা প্রতি দিকে {table.lock-delay.delay_lock} ms দেরিতে গেলে A-র কিপঅ্যালাইভ পৌঁছায় তার লিজ ফুরোনোর পরে, আর B লক পেয়ে যায়। স্টোরেজে যাওয়ার পথে আটকে থাকা লেখায় হারায় না: কাজের সময় A তার লিজ বাঁচিয়ে রাখে। পুরো সারণি, প্রতিটি সার্ভিস আর প্রতিটি বেড়া, নিরাপত্তা-সারণির পাতায়।',
        },
      },
      {
        set: { scenario: 's3-etag-aba', fencing: 'etag' },
        say: {
          en: 'No token this time: the storage fences by itself, with S3’s conditional write. A reads the balance ({A.read}) and its ETag, then freezes for {pause} ms; its lease ends at {ttl} ms. B takes the lock and withdraws {B.debit}; C takes it next and puts the money back, so the balance is {A.read} again. A wakes and writes with If-Match on the ETag it read.',
          bn: 'এবার কোনো টোকেন নেই: স্টোরেজ নিজেই ফেন্স করে, S3-এর শর্তসাপেক্ষ লেখা দিয়ে। A ব্যালান্স ({A.read}) আর তার ETag পড়ে, তারপর {pause} ms থমকে যায়; {ttl} ms-এ তার লিজ শেষ। B লক নিয়ে {B.debit} তোলে; এরপর C লক নিয়ে টাকাটা ফেরত দেয়, তাই ব্যালান্স আবার {A.read}। A জেগে উঠে যে ETag পড়েছিল তার ওপর If-Match দিয়ে লেখে।',
        },
        ask: {
          q: { en: 'S3 derives the ETag from the content. Is A’s write accepted?', bn: 'S3 ETag বানায় বিষয়বস্তু থেকে। A-র লেখা কি গৃহীত হয়?' },
          choices: [
            { say: { en: 'Yes: the content is back, so the ETag matches', bn: 'হ্যাঁ: বিষয়বস্তু ফিরে এসেছে, তাই ETag মেলে' }, when: { rejected: null } },
            { say: { en: 'No: the object changed twice since A read it', bn: 'না: A পড়ার পর বস্তুটি দুবার বদলেছে' }, when: { rejected: 'A' } },
          ],
        },
        claims: { verdict: 'safe', overlap: true },
        why: {
          en: 'Accepted: final {final}, where a guard that knew the lock would have left {expected}. No money is lost — on this one balance the content is the whole state — but A wrote after its lease had ended and nothing stopped it. The ETag fences the content, not the lock holder: whatever else A does believing it holds the lock goes unguarded.',
          bn: 'গৃহীত: চূড়ান্ত {final}, যেখানে লকের খবর জানা প্রহরী রাখত {expected}। কোনো টাকা হারায়নি — এই একটি ব্যালান্সে বিষয়বস্তুই পুরো অবস্থা — কিন্তু লিজ শেষ হওয়ার পরে A লিখেছে আর কিছুই তাকে থামায়নি। ETag বিষয়বস্তুকে ফেন্স করে, লকধারীকে নয়: লক আছে ভেবে A আর যা কিছু করে, তা অরক্ষিত।',
        },
      },
      {
        set: { scenario: 's3-etag-aba', fencing: 'version' },
        say: {
          en: 'The same schedule on Google Cloud Storage, whose ifGenerationMatch checks the object’s generation: a new number at every write, never reused.',
          bn: 'একই সময়সূচি Google Cloud Storage-এ, যার ifGenerationMatch বস্তুর জেনারেশন যাচাই করে: প্রতিটি লেখায় নতুন একটি সংখ্যা, যা কখনো আবার ব্যবহার হয় না।',
        },
        ask: {
          q: { en: 'Is A’s write accepted now?', bn: 'এবার কি A-র লেখা গৃহীত হয়?' },
          choices: [
            { say: { en: 'Yes, as with the ETag', bn: 'হ্যাঁ, ETag-এর মতোই' }, when: { rejected: null } },
            { say: { en: 'No: the generation A read is gone for good', bn: 'না: A যে জেনারেশন পড়েছিল তা চিরতরে চলে গেছে' }, when: { rejected: 'A' } },
          ],
        },
        claims: { verdict: 'safe' },
        why: {
          en: 'Refused: final {final}, expected {expected}. A → B → A brings the content back but never the generation. Open “Side by side” in the lab with etag to see both runs on one time line.',
          bn: 'প্রত্যাখ্যাত: চূড়ান্ত {final}, প্রত্যাশিত {expected}। A → B → A বিষয়বস্তু ফিরিয়ে আনে, জেনারেশন কখনো নয়। দুটি রান এক সময়রেখায় দেখতে ল্যাবে etag দিয়ে “পাশাপাশি” খুলুন।',
        },
      },
      {
        set: { scenario: 's3-etag-aba', fencing: 'etag' },
        free: true,
        say: {
          en: 'Try it: move A’s pause. Wake A between B’s withdrawal and C’s refund and the content differs, so S3 refuses A; wake it after the refund and the old ETag matches again.',
          bn: 'নিজে চেষ্টা করুন: A-র বিরতি সরান। B-র তোলা আর C-র ফেরতের মাঝখানে A-কে জাগালে বিষয়বস্তু আলাদা, তাই S3 A-কে ফিরিয়ে দেয়; ফেরতের পরে জাগালে পুরনো ETag আবার মেলে।',
        },
        claims: { verdict: 'safe' },
        why: { en: 'At the start: final {final}, expected {expected}.', bn: 'শুরুতে: চূড়ান্ত {final}, প্রত্যাশিত {expected}।' },
      },
    ],
  },
  {
    title: { en: 'The client you call', bn: 'যে ক্লায়েন্ট লাইব্রেরি আপনি ডাকেন' },
    beats: [
      // What the library tells the code (docs/clients.md: each measured against the real library).
      {
        set: { scenario: 'kazoo-is-acquired' },
        say: {
          en: 'Your code does not speak ZooKeeper’s protocol: it calls a library, and knows only what that library tells it. Here A calls kazoo. It takes the lock, reads {A.read} and freezes for {pause} ms, longer than its session lives. After waking it works a while; then, before it writes, A’s code asks kazoo whether it still holds the lock: lock.is_acquired.',
          bn: 'আপনার কোড ZooKeeper-এর প্রোটোকল বলে না: সে একটি লাইব্রেরি ডাকে, আর শুধু ততটুকুই জানে যা লাইব্রেরি তাকে জানায়। এখানে A ডাকে kazoo। সে লক নেয়, {A.read} পড়ে আর {pause} ms থমকে যায় — তার সেশন যতক্ষণ বাঁচে তার চেয়ে বেশি। জেগে কিছুক্ষণ কাজ করে; তারপর, লেখার আগে, A-র কোড kazoo-কে জিজ্ঞেস করে লক এখনও তার কি না: lock.is_acquired।',
        },
        ask: {
          q: { en: 'A is awake again. What does lock.is_acquired answer?', bn: 'A আবার জেগে উঠেছে। lock.is_acquired কী উত্তর দেয়?' },
          choices: [
            { say: { en: 'True: kazoo still says A holds the lock', bn: 'True: kazoo এখনও বলে লক A-র কাছে' }, when: { ownedSays: true } },
            { say: { en: 'False: kazoo knows the session is gone', bn: 'False: kazoo জানে সেশন আর নেই' }, when: { ownedSays: false } },
          ],
        },
        claims: { ownedTruth: false },
        why: {
          en: 'True, at {A.ownedAt} ms — while ZooKeeper had ended A’s session at {A.leaseEnd} ms, deleted its node and given the lock to B. is_acquired is a field kazoo sets at the grant and clears only at its own release: it asks nobody. The listener tells the truth — SUSPENDED at {A.suspendedAt} ms, LOST at {A.lostAt} ms — but A’s code never asked it. On A’s lane the hollow diamond is what the code saw; the lease on ZooKeeper’s lane is the truth.',
          bn: 'True, {A.ownedAt} ms-এ — অথচ ZooKeeper {A.leaseEnd} ms-এ A-র সেশন শেষ করে, তার নোড মুছে, লকটি B-কে দিয়ে দিয়েছে। is_acquired একটি ফিল্ড, যা kazoo লক পাওয়ার সময় বসায় আর শুধু নিজের release-এ মোছে: সে কাউকে জিজ্ঞেস করে না। সত্যিটা বলে লিসেনার — {A.suspendedAt} ms-এ SUSPENDED, {A.lostAt} ms-এ LOST — কিন্তু A-র কোড তাকে কখনো জিজ্ঞেস করেনি। A-র লেনে ফাঁপা হীরকটি কোড যা দেখেছে; ZooKeeper-এর লেনে লিজটি সত্য।',
        },
      },
      {
        set: { scenario: 'redis-py-owned-before-pause' },
        say: {
          en: 'redis-py’s lock.owned() is not a field: it asks redis whether the key still holds A’s value. Here A takes the lock, reads {A.read}, asks lock.owned() — and only then freezes for {pause} ms, before its write.',
          bn: 'redis-py-এর lock.owned() কোনো ফিল্ড নয়: সে redis-কে জিজ্ঞেস করে কী-তে এখনও A-র মান আছে কি না। এখানে A লক নেয়, {A.read} পড়ে, lock.owned() জিজ্ঞেস করে — আর তারপরই, লেখার আগে, {pause} ms থমকে যায়।',
        },
        ask: {
          q: { en: 'owned() said True. Does B’s update survive A’s write?', bn: 'owned() বলেছে True। A-র লেখার পরে B-র আপডেট কি টিকে থাকে?' },
          choices: [
            { say: { en: 'Yes: A checked, so A’s write is safe', bn: 'হ্যাঁ: A যাচাই করেছে, তাই A-র লেখা নিরাপদ' }, when: { lost: null } },
            { say: { en: 'No: the answer was true when asked, not when A wrote', bn: 'না: উত্তরটি সত্য ছিল জিজ্ঞেস করার সময়, A-র লেখার সময় নয়' }, when: { lost: 'B' } },
          ],
        },
        claims: { ownedSays: true, ownedTruth: true },
        why: {
          en: 'owned() answered True at {A.ownedAt} ms, and it was true then. The pause came after the question: the key expired at {A.leaseEnd} ms, B took the lock, and A’s write still landed — final {final}, expected {expected}. redis-py said so only at release: lock.release() raised LockNotOwnedError at {A.raisedAt} ms, after the write. An exception at release is news of damage already done.',
          bn: 'owned() {A.ownedAt} ms-এ True বলেছে, আর তখন তা সত্যই ছিল। বিরতি এসেছে প্রশ্নের পরে: কী-টির মেয়াদ {A.leaseEnd} ms-এ ফুরিয়েছে, B লক নিয়েছে, আর A-র লেখা তবুও পৌঁছেছে — চূড়ান্ত {final}, প্রত্যাশিত {expected}। redis-py তা জানিয়েছে কেবল ছাড়ার সময়: লেখার পরে, {A.raisedAt} ms-এ lock.release() LockNotOwnedError ছুড়েছে। ছাড়ার সময়ের ব্যতিক্রম হলো ইতিমধ্যে ঘটে যাওয়া ক্ষতির খবর।',
        },
      },
      {
        set: { scenario: 'redis-py-owned-after-pause' },
        say: {
          en: 'The same code with the question moved: A freezes for {pause} ms first, then asks lock.owned(), then writes.',
          bn: 'একই কোড, প্রশ্নটি সরানো: A আগে {pause} ms থমকে যায়, তারপর lock.owned() জিজ্ঞেস করে, তারপর লেখে।',
        },
        ask: {
          q: { en: 'Does B’s update survive now?', bn: 'এবার কি B-র আপডেট টিকে থাকে?' },
          choices: [
            { say: { en: 'Yes: owned() says False and A gives up', bn: 'হ্যাঁ: owned() বলে False, আর A হাল ছেড়ে দেয়' }, when: { lost: null, ownedSays: false } },
            { say: { en: 'No: owned() still says True', bn: 'না: owned() তখনও বলে True' }, when: { lost: 'B' } },
          ],
        },
        claims: { ownedTruth: false },
        why: {
          en: 'Asked after the pause, owned() went to redis and answered False at {A.ownedAt} ms: A gave up, and B’s update stands — final {final}, expected {expected}. The check saves this run, not every run: a pause between owned() and the write opens the same gap again. Only a storage that checks the write itself — its version, its owner — closes it.',
          bn: 'বিরতির পরে জিজ্ঞেস করায় owned() redis-এ গিয়ে {A.ownedAt} ms-এ False বলেছে: A হাল ছেড়েছে, আর B-র আপডেট টিকে আছে — চূড়ান্ত {final}, প্রত্যাশিত {expected}। এই যাচাই এই রানটি বাঁচায়, সব রান নয়: owned() আর লেখার মাঝে একটি বিরতি একই ফাঁক আবার খুলে দেয়। তা বন্ধ করে কেবল সেই স্টোরেজ, যে নিজেই লেখাটি যাচাই করে — তার ভার্সন, তার মালিক।',
        },
      },
    ],
  },
];

/** Words of the lesson pages themselves (the lab's come from i18n.js). */
export const words = {
  en: {
    docTitle: 'leaselab — lessons: distributed locks, pauses and fencing tokens',
    h1: 'leaselab lessons',
    lede: 'Eight short chapters. Each asks you to predict what happens, then runs the simulation and shows you. Every number you read comes from a run you can replay.',
    toLab: 'Open the free lab',
    toMatrix: 'The safety table: which lock, which fence →',
    chapters: 'Chapters',
    chapter: 'Chapter {n}',
    beatOf: 'Step {i} of {n}',
    prev: '← Previous',
    next: 'Next →',
    replay: 'Replay this step',
    predict: 'Predict',
    setup: 'The setting: {title}. {params}',
    fencingIs: 'Fencing: {policy}.',
    naive: 'The client is naive.',
    retries: 'A refused client starts over.',
    right: 'Right.',
    wrong: 'Not quite — the right answer is marked.',
    answer: 'What happened',
    tryIt: 'Try it: the sliders are yours.',
    done: 'done',
    progress: '{i} of {n} steps seen',
    keys: 'Keys: ← and → move between steps while the lesson has focus.',
    chapterEnd: 'End of the chapter.',
    nextChapter: 'Next chapter: {title}',
    scanOf: '{k} of {n}',
    lessonNotFound: 'There is no lesson {n}; showing chapter one.',
    stop: '.',
  },
  bn: {
    docTitle: 'leaselab — পাঠ: ডিস্ট্রিবিউটেড লক, বিরতি ও ফেন্সিং টোকেন',
    h1: 'leaselab পাঠ',
    lede: 'আটটি ছোট অধ্যায়। প্রতিটি আগে আপনাকে অনুমান করতে বলে কী ঘটবে, তারপর সিমুলেশন চালিয়ে দেখায়। যে সংখ্যাই পড়ুন, তা আসে এমন একটি রান থেকে যা আপনি আবার চালাতে পারেন।',
    toLab: 'মুক্ত ল্যাব খুলুন',
    toMatrix: 'নিরাপত্তা-সারণি: কোন লক, কোন বেড়া →',
    chapters: 'অধ্যায়সমূহ',
    chapter: 'অধ্যায় {n}',
    beatOf: 'ধাপ {i} / {n}',
    prev: '← আগের',
    next: 'পরের →',
    replay: 'এই ধাপ আবার চালান',
    predict: 'অনুমান করুন',
    setup: 'পরিস্থিতি: {title}। {params}',
    fencingIs: 'ফেন্সিং: {policy}।',
    naive: 'ক্লায়েন্টটি সরল।',
    retries: 'প্রত্যাখ্যাত ক্লায়েন্ট আবার শুরু করে।',
    right: 'ঠিক।',
    wrong: 'পুরোপুরি নয় — সঠিক উত্তর চিহ্নিত করা আছে।',
    answer: 'যা ঘটেছে',
    tryIt: 'নিজে চেষ্টা করুন: স্লাইডারগুলো এখন আপনার।',
    done: 'শেষ',
    progress: '{n}টির মধ্যে {i}টি ধাপ দেখা হয়েছে',
    keys: 'কী: পাঠে ফোকাস থাকলে ← ও → দিয়ে ধাপ বদলান।',
    chapterEnd: 'অধ্যায় শেষ।',
    nextChapter: 'পরের অধ্যায়: {title}',
    scanOf: '{n}টির মধ্যে {k}টি',
    lessonNotFound: 'পাঠ {n} নেই; প্রথম অধ্যায় দেখানো হচ্ছে।',
    stop: '।',
  },
};
