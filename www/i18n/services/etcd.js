// etcd's words, in English and Bengali: what the page shows only for a run on etcd (its lane, its
// events in its own terms, its own keys for generic words and the words they name). i18n.js loads this
// file by the run's service id, alongside the full wasm, and merges it into the dictionary in use.
export default {
  en: {
    // The safety table's row (matrix.html, <lease-lab-matrix>).
    serviceNames: { etcd: 'etcd' },
    ownWords: {
      etcd: { naiveLabel: 'naiveLabelEtcd', noteNaive: 'noteNaiveEtcd' },
    },
    lanes: { etcd: 'etcd server' },
    naiveLabelEtcd: 'etcd 3.4’s lock: no check that a waiter’s key still exists',
    noteNaiveEtcd: 'etcd 3.5’s Lock checks, after the wait, that the waiter’s key still exists, and fails if its lease expired meanwhile. etcd 3.4, which Debian ships, does not.',
    staleGrant: '⚠ told it holds the lock: its key is gone',
    staleGrantShort: '⚠ stale grant',
    ev: {
      'lease-granted': 'etcd grants {a} a lease; unless {a} keeps it alive, it ends at {end} ms.',
      queued: 'etcd puts {a}’s lock key (revision {rev}); it waits behind {behind}’s key.',
      keepalive: '{a}’s keepalive reaches etcd: the lease now ends at {end} ms.',
      'keepalive-failed': '{a}’s keepalive reaches etcd too late: the lease is gone, and {a} now knows it.',
      'stale-grant': 'etcd 3.4 tells {a} it holds the lock{tok}, though {a}’s lease expired while it waited and its key is gone.',
      'etcd-granted': '{a}’s key is now the lowest: {a} holds the lock{tok}; its lease ends at {end} ms unless kept alive.',
      'etcd-deniedNoSession': '{a}’s Lock call fails: its lease (session) has expired.',
      'etcd-lease-expired': 'No keepalive came: {a}’s lease expires and etcd deletes its key. Nobody tells {a}.',
      'etcd-released': '{a} unlocks: its key is deleted.',
      'etcd-session-ended-disconnected': '{a} closes its session: its lease is revoked{freed}.',
    },
  },
  bn: {
    serviceNames: { etcd: 'etcd' },
    lanes: { etcd: 'etcd সার্ভার' },
    naiveLabelEtcd: 'etcd 3.4-এর লক: অপেক্ষমাণের কী এখনো আছে কি না, যাচাই নেই',
    noteNaiveEtcd: 'etcd 3.5-এর Lock অপেক্ষার পরে দেখে নেয় অপেক্ষমাণের কী এখনো আছে কি না, আর এর মধ্যে লিজ ফুরোলে ব্যর্থ হয়। Debian যে etcd 3.4 দেয়, সে দেখে না।',
    staleGrant: '⚠ বলা হয় লক তার, অথচ তার কী মুছে গেছে',
    staleGrantShort: '⚠ ভুল অনুমতি',
    ev: {
      'lease-granted': 'etcd {a}-কে একটি লিজ দেয়; {a} বাঁচিয়ে না রাখলে তা {end} ms-এ শেষ।',
      queued: 'etcd {a}-র লক কী রাখে (রিভিশন {rev}); সেটি {behind}-এর কী-র পেছনে অপেক্ষা করে।',
      keepalive: '{a}-র কিপঅ্যালাইভ etcd-তে পৌঁছায়: লিজ এখন {end} ms-এ শেষ।',
      'keepalive-failed': '{a}-র কিপঅ্যালাইভ দেরিতে পৌঁছায়: লিজ আর নেই, আর {a} এখন তা জানে।',
      'stale-grant': 'etcd 3.4 {a}-কে বলে লক তার{tok}, যদিও অপেক্ষার সময় {a}-র লিজ ফুরিয়েছে আর তার কী মুছে গেছে।',
      'etcd-granted': '{a}-র কী এখন সবচেয়ে নিচে: লক {a}-র{tok}; বাঁচিয়ে না রাখলে লিজ {end} ms-এ শেষ।',
      'etcd-deniedNoSession': '{a}-র Lock কল ব্যর্থ: তার লিজ (সেশন) ফুরিয়েছে।',
      'etcd-lease-expired': 'কোনো কিপঅ্যালাইভ আসেনি: {a}-র লিজ ফুরোয় আর etcd তার কী মুছে দেয়। {a}-কে কেউ জানায় না।',
      'etcd-released': '{a} আনলক করে: তার কী মুছে যায়।',
      'etcd-session-ended-disconnected': '{a} তার সেশন বন্ধ করে: লিজ বাতিল{freed}।',
    },
  },
};
