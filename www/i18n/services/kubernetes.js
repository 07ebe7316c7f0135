// Kubernetes's words, in English and Bengali: what the page shows only for a run on Kubernetes (its lane, its
// events in its own terms, its own keys for generic words and the words they name). i18n.js loads this
// file by the run's service id, alongside the full wasm, and merges it into the dictionary in use.
export default {
  en: {
    // The safety table's row (matrix.html, <lease-lab-matrix>).
    serviceNames: { kubernetes: 'Kubernetes Lease' },
    ownWords: {
      kubernetes: { keepaliveFailed: 'renewFailed', expired: 'takenOver', naiveLabel: 'naiveLabelK8s', noteNaive: 'noteNaiveK8s' },
    },
    lanes: { kubernetes: 'Kubernetes API server' },
    renewFailed: 'renew ✗: no answer',
    takenOver: '{c}’s Lease taken over',
    naiveLabelK8s: 'client-go before Kubernetes 1.12: a hung renew call outlasts the renew deadline',
    noteNaiveK8s: 'Since Kubernetes 1.12, client-go stops leading when the renew deadline passes, even while a renew call is still waiting for an answer. Before, it waited for the call to fail — a minute, with the API server’s default request timeout.',
    marginHungRenew: '{c} kept leading on a renew call that had no answer: no renewal had succeeded since {last} ms, and client-go before 1.12 waits for the call past the renew deadline (assumed: a renew call returns within the renew deadline)',
    marginRenewDeadline: '{c} had not given up leading: its last renewal was at {last} ms and its renew deadline had not passed when another client took over (assumed: the renew deadline is shorter than the lease duration)',
    stoppedLeading: 'stops leading',
    lastSeen: 'last sees {h}’s Lease change',
    lastSeenShort: 'sees {h}',
    ev: {
      'kubernetes-grantedSession': '{a} writes itself into the Lease as its holder{tok}: it leads (OnStartedLeading). The API server sets no expiry: the lease lasts until another client overwrites it.',
      'kubernetes-queued': '{a} gets the Lease: {behind} holds it, and it changed since {a} last looked (resourceVersion {rev}). {a} notes the time by its own clock and will not take over until a lease duration passes without another change.',
      'kubernetes-denied': '{a} gets the Lease: {holder} holds it, not yet expired as {a} observed it. {a} tries again a retry period later.',
      'kubernetes-keepalive': '{a} renews the Lease: an update of its own record.',
      'kubernetes-keepalive-failed': '{a}’s renew call fails: the API server never answered it, and the request timed out.',
      'kubernetes-renew-denied': '{a} could not renew within the renew deadline: it stops leading (OnStoppedLeading).',
      'kubernetes-released': '{a} empties the Lease’s holder: released.',
      'kubernetes-partition-cut': 'The network cuts {a} off from its API server (not from the storage): its requests get no answer.',
      'kubernetes-partition-heal': 'The network reconnects {a} to its API server.',
    },
  },
  bn: {
    serviceNames: { kubernetes: 'Kubernetes Lease' },
    lanes: { kubernetes: 'Kubernetes API সার্ভার' },
    renewFailed: 'নবায়ন ✗: উত্তর নেই',
    takenOver: '{c}-র Lease অন্যের দখলে',
    naiveLabelK8s: 'Kubernetes 1.12-র আগের client-go: আটকে থাকা নবায়ন কল নবায়নের শেষসীমা পেরিয়ে যায়',
    noteNaiveK8s: 'Kubernetes 1.12 থেকে client-go নবায়নের শেষসীমা পেরোলেই নেতৃত্ব ছেড়ে দেয়, কোনো নবায়ন কল তখনো উত্তরের অপেক্ষায় থাকলেও। আগে সে কলটি ব্যর্থ হওয়া পর্যন্ত অপেক্ষা করত — API সার্ভারের ডিফল্ট রিকোয়েস্ট টাইমআউটে এক মিনিট।',
    marginHungRenew: '{c} উত্তরহীন এক নবায়ন কলের ভরসায় নেতা থেকে গেছে: {last} ms-এর পর কোনো নবায়ন সফল হয়নি, আর ১.১২-র আগের client-go কলটির জন্য নবায়নের শেষসীমা পেরিয়েও অপেক্ষা করে (ধরে নেওয়া: নবায়ন কল শেষসীমার মধ্যে ফেরে)',
    marginRenewDeadline: '{c} নেতৃত্ব ছাড়েনি: তার শেষ নবায়ন {last} ms-এ, আর অন্য ক্লায়েন্ট দখল নেওয়ার সময়ও তার নবায়নের শেষসীমা পেরোয়নি (ধরে নেওয়া: নবায়নের শেষসীমা লিজের মেয়াদের চেয়ে ছোট)',
    stoppedLeading: 'নেতৃত্ব ছাড়ে',
    lastSeen: '{h}-র Lease-এ শেষ বদল দেখে',
    lastSeenShort: '{h}-কে দেখে',
    ev: {
      'kubernetes-grantedSession': '{a} নিজেকে Lease-এর ধারক হিসেবে লেখে{tok}: সে এখন নেতা (OnStartedLeading)। API সার্ভার কোনো মেয়াদ বসায় না: অন্য কোনো ক্লায়েন্ট ওপরে না লেখা পর্যন্ত লিজ থাকে।',
      'kubernetes-queued': '{a} Lease পড়ে: ধারক {behind}, আর {a}-র আগের দেখার পর এটি বদলেছে (resourceVersion {rev})। {a} নিজের ঘড়িতে সময়টা টুকে রাখে; আর কোনো বদল ছাড়া লিজের পুরো মেয়াদ না কাটলে সে দখল নেবে না।',
      'kubernetes-denied': '{a} Lease পড়ে: ধারক {holder}, {a} যেমন দেখেছে তাতে মেয়াদ এখনো ফুরোয়নি। এক রিট্রাই পিরিয়ড পরে {a} আবার চেষ্টা করে।',
      'kubernetes-keepalive': '{a} Lease নবায়ন করে: নিজের রেকর্ডের একটি আপডেট।',
      'kubernetes-keepalive-failed': '{a}-র নবায়ন কল ব্যর্থ: API সার্ভার কোনো উত্তর দেয়নি, আর রিকোয়েস্টের সময় ফুরিয়েছে।',
      'kubernetes-renew-denied': '{a} নবায়নের শেষসীমার মধ্যে নবায়ন করতে পারেনি: সে নেতৃত্ব ছেড়ে দেয় (OnStoppedLeading)।',
      'kubernetes-released': '{a} Lease-এর ধারকের ঘর খালি করে: ছেড়ে দেওয়া হলো।',
      'kubernetes-partition-cut': 'নেটওয়ার্ক {a}-কে তার API সার্ভার থেকে বিচ্ছিন্ন করে (স্টোরেজ থেকে নয়): তার অনুরোধের কোনো উত্তর আসে না।',
      'kubernetes-partition-heal': 'নেটওয়ার্ক {a}-কে আবার তার API সার্ভারের সঙ্গে যুক্ত করে।',
    },
  },
};
