// Hazelcast's words, in English and Bengali: what the page shows only for a run on Hazelcast (its lane, its
// events in its own terms, its own keys for generic words and the words they name). i18n.js loads this
// file by the run's service id, alongside the full wasm, and merges it into the dictionary in use.
export default {
  en: {
    // The safety table's row (matrix.html, <lease-lab-matrix>).
    serviceNames: { hazelcast: 'Hazelcast FencedLock' },
    ownWords: {
      hazelcast: { keepaliveFailed: 'heartbeatFailed', queueRev: 'queueCommit', 'released-nothing': 'releasedNothing' },
    },
    lanes: { hazelcast: 'Hazelcast CP group' },
    heartbeatFailed: 'heartbeat ✗: session closed',
    queueCommit: '{c} (commit {n})',
    queueCommitShort: '{c} c{n}',
    ev: {
      'hazelcast-lease-granted': '{a}’s first lock call opens a CP session; with no heartbeat it closes at {end} ms.',
      'hazelcast-queued': '{a}’s lock call (commit {rev}) waits on the CP group behind {behind}.',
      'hazelcast-grantedSession': '{a} owns the lock: lockAndGetFence() returns{tok}, the commit index of its lock call; it holds it while its session lives.',
      'hazelcast-keepalive': '{a}’s heartbeat is committed: its session now closes at {end} ms unless another comes.',
      'hazelcast-keepalive-failed': '{a}’s heartbeat fails with SessionExpiredException: its session is closed, and {a} now knows it.',
      'hazelcast-lease-expired': 'No heartbeat from {a} for the session TTL: the CP group closes its session and releases its lock. Nobody tells {a}.',
      'hazelcast-deniedNoSession': '{a}’s lock call fails with SessionExpiredException: its session is closed.',
      'hazelcast-released': '{a} unlocks.',
      'hazelcast-releasedNothing': '{a}’s unlock() fails with LockOwnershipLostException: its session was closed, and the lock with it.',
      'hazelcast-session-ended-disconnected': '{a} shuts down: its CP session is closed{freed}.',
    },
  },
  bn: {
    serviceNames: { hazelcast: 'Hazelcast FencedLock' },
    lanes: { hazelcast: 'Hazelcast CP গ্রুপ' },
    heartbeatFailed: 'হার্টবিট ✗: সেশন বন্ধ',
    queueCommit: '{c} (কমিট {n})',
    queueCommitShort: '{c} #{n}',
    ev: {
      'hazelcast-lease-granted': '{a}-র প্রথম lock কল একটি CP সেশন খোলে; কোনো হার্টবিট না এলে সেটি {end} ms-এ বন্ধ হবে।',
      'hazelcast-queued': '{a}-র lock কল (কমিট {rev}) CP গ্রুপে {behind}-এর পেছনে অপেক্ষা করে।',
      'hazelcast-grantedSession': 'লক এখন {a}-র: lockAndGetFence() ফেরায়{tok}, তার lock কলের কমিট ইনডেক্স; যতক্ষণ সেশন টিকে থাকে, লক তার।',
      'hazelcast-keepalive': '{a}-র হার্টবিট কমিট হয়: আর কোনোটি না এলে সেশন এখন {end} ms-এ বন্ধ হবে।',
      'hazelcast-keepalive-failed': '{a}-র হার্টবিট SessionExpiredException-এ ব্যর্থ হয়: তার সেশন বন্ধ, আর {a} এখন তা জানে।',
      'hazelcast-lease-expired': 'সেশন TTL ধরে {a}-র কোনো হার্টবিট আসেনি: CP গ্রুপ তার সেশন বন্ধ করে লক ছেড়ে দেয়। {a}-কে কেউ জানায় না।',
      'hazelcast-deniedNoSession': '{a}-র lock কল SessionExpiredException-এ ব্যর্থ হয়: তার সেশন বন্ধ।',
      'hazelcast-released': '{a} আনলক করে।',
      'hazelcast-releasedNothing': '{a}-র unlock() LockOwnershipLostException-এ ব্যর্থ হয়: তার সেশন বন্ধ হয়ে গেছে, আর তার সঙ্গে লকও।',
      'hazelcast-session-ended-disconnected': '{a} বন্ধ হয়: তার CP সেশন বন্ধ হয়{freed}।',
    },
  },
};
