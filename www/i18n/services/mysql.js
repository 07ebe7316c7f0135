// MySQL's words, in English and Bengali: what the page shows only for a run on MySQL (its lane, its
// events in its own terms, its own keys for generic words and the words they name). i18n.js loads this
// file by the run's service id, alongside the full wasm, and merges it into the dictionary in use.
export default {
  en: {
    // The safety table's row (matrix.html, <lease-lab-matrix>).
    serviceNames: { mysql: 'MySQL GET_LOCK' },
    ownWords: {
      mysql: { marginOk: 'marginNoTtl' },
    },
    lanes: { mysql: 'MySQL server' },
    ev: {
      'mysql-grantedSession': 'MySQL grants {a} the named lock: GET_LOCK returns 1{tok}. {a}’s connection holds it until RELEASE_LOCK or until the connection ends (no TTL).',
      'mysql-queued': '{a}’s GET_LOCK waits at the server: {behind}’s connection holds the lock.',
      'mysql-denied': '{a}’s GET_LOCK returns 0: {holder}’s connection holds the lock.',
      'mysql-deniedNoSession': '{a}’s GET_LOCK fails: its connection is gone (lost connection to server).',
      'mysql-session-ended-terminated': 'An admin runs KILL CONNECTION on {a}’s connection: it ends{freed}.',
      'mysql-session-ended-idle-timeout': '{a}, frozen, sends nothing: after wait_timeout the server closes its idle connection{freed}.',
      'mysql-session-ended-disconnected': '{a} disconnects{freed}.',
      'mysql-released': '{a} runs RELEASE_LOCK: the lock is free.',
    },
  },
  bn: {
    serviceNames: { mysql: 'MySQL GET_LOCK' },
    lanes: { mysql: 'MySQL সার্ভার' },
    ev: {
      'mysql-grantedSession': 'MySQL {a}-কে নামযুক্ত লকটি দেয়: GET_LOCK ১ ফেরত দেয়{tok}। RELEASE_LOCK বা সংযোগ শেষ না হওয়া পর্যন্ত {a}-র সংযোগ সেটি ধরে রাখে (কোনো TTL নেই)।',
      'mysql-queued': '{a}-র GET_LOCK সার্ভারে অপেক্ষা করে: লক {behind}-র সংযোগের কাছে।',
      'mysql-denied': '{a}-র GET_LOCK ০ ফেরত দেয়: লক {holder}-র সংযোগের কাছে।',
      'mysql-deniedNoSession': '{a}-র GET_LOCK ব্যর্থ: তার সংযোগ আর নেই (সার্ভারের সঙ্গে সংযোগ হারিয়েছে)।',
      'mysql-session-ended-terminated': 'একজন অ্যাডমিন {a}-র সংযোগে KILL CONNECTION চালান: সংযোগ শেষ{freed}।',
      'mysql-session-ended-idle-timeout': 'থমকে থাকা {a} কিছুই পাঠায় না: wait_timeout পরে সার্ভার তার অলস সংযোগ বন্ধ করে{freed}।',
      'mysql-session-ended-disconnected': '{a} সংযোগ ছেড়ে দেয়{freed}।',
      'mysql-released': '{a} RELEASE_LOCK চালায়: লক মুক্ত।',
    },
  },
};
