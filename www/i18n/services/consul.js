// Consul's words, in English and Bengali: what the page shows only for a run on Consul (its lane, its
// events in its own terms, its own keys for generic words and the words they name). i18n.js loads this
// file by the run's service id, alongside the full wasm, and merges it into the dictionary in use.
export default {
  en: {
    // The safety table's row (matrix.html, <lease-lab-matrix>).
    serviceNames: { consul: 'Consul' },
    ownWords: {
      consul: {
        keepaliveFailed: 'consulRenewFailed',
        expired: 'sessionInvalidated',
        stale: 'staleSession',
        'released-nothing': 'releasedNothing',
        marginLate: 'marginConsul',
      },
    },
    lanes: { consul: 'Consul server' },
    consulRenewFailed: 'renew ✗: session gone',
    sessionInvalidated: '{c}’s session invalidated',
    marginConsul: '{c}’s write landed at {t} ms, {late} ms after Consul invalidated its session at {end} ms, for want of a renewal in twice its {ttl} ms TTL.',
    marginDelayHeld: 'Consul’s lock-delay kept the lock closed to everyone else until {until} ms, so no one else had it yet.',
    marginDelayOver: 'Consul’s lock-delay kept the lock closed only until {until} ms, and another client took it before the write landed.',
    ev: {
      'consul-lease-granted': '{a} creates a Consul session; unless {a} renews it, the server invalidates it at {end} ms (twice the TTL).',
      'consul-queued': '{a} reads the lock’s key: {behind}’s session holds it, so {a}’s blocking query waits for the key to change.',
      'consul-granted': '{a}’s PUT ?acquire succeeds: {a} holds the lock{tok}, the key’s LockIndex; its session lasts until {end} ms unless renewed.',
      'consul-denied': '{a}’s PUT ?acquire fails: {holder}’s session holds the key. {a} reads it again in 5 s.',
      'consul-deniedDelay': '{a}’s PUT ?acquire fails: no session holds the key, but its lock-delay is still running. {a} tries again in 5 s.',
      'consul-deniedNoSession': '{a}’s PUT ?acquire fails: its session has been invalidated.',
      'consul-keepalive': '{a} renews its session: the server now invalidates it at {end} ms unless renewed again.',
      'consul-keepalive-failed': '{a}’s renewal gets a 404: its session was invalidated, and {a} now knows it.',
      'consul-lease-expired': 'No renewal from {a} for twice the TTL: Consul invalidates its session and releases its lock, closed to others for the lock-delay. Nobody tells {a}.',
      'consul-released': '{a} releases the key (PUT ?release): it is free at once, with no lock-delay.',
      'consul-releasedNothing': '{a}’s PUT ?release frees nothing: its session no longer holds the key.',
      'consul-session-ended-disconnected': '{a} destroys its session.',
      'consul-session-ended-freed': '{a} destroys its session while it holds the key: the lock is released, closed to others for the lock-delay.',
    },
  },
  bn: {
    serviceNames: { consul: 'Consul' },
    lanes: { consul: 'Consul সার্ভার' },
    consulRenewFailed: 'নবায়ন ✗: সেশন নেই',
    sessionInvalidated: '{c}-র সেশন বাতিল',
    marginConsul: '{c}-র লেখা পৌঁছেছে {t} ms-এ, {end} ms-এ Consul তার সেশন বাতিল করার {late} ms পরে, কারণ {ttl} ms TTL-এর দ্বিগুণ সময়েও কোনো নবায়ন আসেনি।',
    marginDelayHeld: 'Consul-এর lock-delay {until} ms পর্যন্ত লকটি অন্য সবার জন্য বন্ধ রেখেছিল, তাই তখনো আর কেউ সেটি পায়নি।',
    marginDelayOver: 'Consul-এর lock-delay লকটি বন্ধ রেখেছিল কেবল {until} ms পর্যন্ত, আর লেখা পৌঁছানোর আগেই আরেক ক্লায়েন্ট সেটি নিয়ে নেয়।',
    ev: {
      'consul-lease-granted': '{a} একটি Consul সেশন তৈরি করে; {a} নবায়ন না করলে সার্ভার সেটি {end} ms-এ বাতিল করবে (TTL-এর দ্বিগুণ সময়ে)।',
      'consul-queued': '{a} লকের কী পড়ে: সেটি {behind}-র সেশনের দখলে, তাই {a}-র ব্লকিং কোয়েরি কী বদলানোর অপেক্ষায় থাকে।',
      'consul-granted': '{a}-র PUT ?acquire সফল: লক এখন {a}-র হাতে{tok}, যা কী-টির LockIndex; নবায়ন না হলে তার সেশন টিকবে {end} ms পর্যন্ত।',
      'consul-denied': '{a}-র PUT ?acquire ব্যর্থ: কী-টি {holder}-র সেশনের দখলে। {a} ৫ s পরে আবার পড়ে দেখে।',
      'consul-deniedDelay': '{a}-র PUT ?acquire ব্যর্থ: কী-টি কোনো সেশনের দখলে নেই, কিন্তু তার lock-delay এখনো চলছে। {a} ৫ s পরে আবার চেষ্টা করে।',
      'consul-deniedNoSession': '{a}-র PUT ?acquire ব্যর্থ: তার সেশন বাতিল হয়ে গেছে।',
      'consul-keepalive': '{a} তার সেশন নবায়ন করে: আবার নবায়ন না হলে সার্ভার এখন সেটি বাতিল করবে {end} ms-এ।',
      'consul-keepalive-failed': '{a}-র নবায়নের উত্তর 404: তার সেশন বাতিল হয়ে গেছে, আর {a} এখন তা জানে।',
      'consul-lease-expired': 'TTL-এর দ্বিগুণ সময় ধরে {a}-র কোনো নবায়ন আসেনি: Consul তার সেশন বাতিল করে লকটি ছেড়ে দেয়, যা lock-delay পর্যন্ত অন্যদের জন্য বন্ধ থাকে। {a}-কে কেউ জানায় না।',
      'consul-released': '{a} কী-টি ছেড়ে দেয় (PUT ?release): সেটি তখনই মুক্ত, কোনো lock-delay ছাড়াই।',
      'consul-releasedNothing': '{a}-র PUT ?release কিছুই মুক্ত করে না: কী-টি আর তার সেশনের দখলে নেই।',
      'consul-session-ended-disconnected': '{a} তার সেশন মুছে ফেলে।',
      'consul-session-ended-freed': 'কী হাতে থাকতেই {a} তার সেশন মুছে ফেলে: লকটি ছাড়া পায়, তবে lock-delay পর্যন্ত অন্যদের জন্য বন্ধ থাকে।',
    },
  },
};
