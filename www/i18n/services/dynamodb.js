// DynamoDB's words, in English and Bengali: what the page shows only for a run on DynamoDB (its lane, its
// events in its own terms, its own keys for generic words and the words they name). i18n.js loads this
// file by the run's service id, alongside the full wasm, and merges it into the dictionary in use.
export default {
  en: {
    // The safety table's row (matrix.html, <lease-lab-matrix>).
    serviceNames: { dynamodb: 'DynamoDB lock client' },
    ownWords: {
      dynamodb: {
        keepaliveFailed: 'heartbeatTaken',
        expired: 'itemTakenOver',
        'released-nothing': 'released-failed',
        marginLate: 'marginTakenOver',
      },
    },
    lanes: { dynamodb: 'DynamoDB lock table' },
    heartbeatTaken: 'heartbeat ✗: lock taken',
    itemTakenOver: '{c}’s item taken over',
    marginTakenOver: '{c}’s write landed at {t} ms, {late} ms after another client took its lock item over at {end} ms, having seen the same RVN for longer than the {ttl} ms lease by its own clock (held from {from} ms).',
    rvnNoOrder: 'The token here is the RVN, a random GUID: a guard that orders tokens compares random numbers, so whatever it did, it did by chance (and every heartbeat draws the holder a new one). Only equality means anything; the data record’s own version does not depend on luck.',
    ev: {
      'dynamodb-queued': '{a} reads the lock item: {behind} holds it (RVN {rev}). {a} starts timing that RVN on its own clock and reads again every refresh period.',
      'dynamodb-denied': '{a} reads the lock item again: still {holder}’s, with the same RVN.',
      'dynamodb-deniedDelay': '{a}’s conditional put fails: the item changed first.',
      'dynamodb-granted': '{a}’s conditional put succeeds: {a} holds the lock{tok}. A waiter that sees this RVN may take it over after {end} ms.',
      'dynamodb-grantedNoToken': '{a}’s conditional put succeeds: {a} holds the lock.',
      'dynamodb-lease-expired': 'A waiter has seen {a}’s RVN unchanged for longer than the lease, by its own clock, and takes the item over. No server expired anything, and nobody tells {a}.',
      'dynamodb-keepalive': '{a}’s heartbeat writes a new RVN: a waiter must start timing again.',
      'dynamodb-keepalive-failed': '{a}’s heartbeat is refused (ConditionalCheckFailed): the item is not {a}’s any more, and now {a} knows it.',
      'dynamodb-released': '{a} deletes its lock item (conditional on its RVN).',
      'dynamodb-released-failed': '{a}’s delete is refused (ConditionalCheckFailed): its lock was taken over.',
    },
  },
  bn: {
    serviceNames: { dynamodb: 'DynamoDB লক ক্লায়েন্ট' },
    lanes: { dynamodb: 'DynamoDB লক টেবিল' },
    heartbeatTaken: 'হার্টবিট ✗: লক বেদখল',
    itemTakenOver: '{c}-র আইটেম বেদখল',
    marginTakenOver: '{c}-র লেখা পৌঁছেছে {t} ms-এ, {end} ms-এ অন্য এক ক্লায়েন্ট তার লক আইটেম দখল করে নেওয়ার {late} ms পরে — সে নিজের ঘড়িতে {ttl} ms লিজের চেয়ে বেশি সময় একই RVN দেখেছিল ({from} ms থেকে দখল)।',
    rvnNoOrder: 'এখানে টোকেন হলো RVN, একটি এলোমেলো GUID: যে পাহারা টোকেনের ক্রম মেলায় সে এলোমেলো সংখ্যার তুলনা করে, তাই সে যা-ই করুক, তা ঘটনাচক্রে (আর প্রতিটি হার্টবিটে ধারক নতুন একটি পায়)। শুধু সমান-অসমানের অর্থ আছে; ডেটা রেকর্ডের নিজের ভার্সন ভাগ্যের ওপর নির্ভর করে না।',
    ev: {
      'dynamodb-queued': '{a} লক আইটেমটি পড়ে: সেটি {behind}-র কাছে (RVN {rev})। {a} নিজের ঘড়িতে সেই RVN-এর সময় গুনতে শুরু করে আর প্রতি রিফ্রেশ-ব্যবধানে আবার পড়ে।',
      'dynamodb-denied': '{a} লক আইটেমটি আবার পড়ে: এখনও {holder}-র, একই RVN।',
      'dynamodb-deniedDelay': '{a}-র শর্তসাপেক্ষ পুট ব্যর্থ: আইটেমটি আগেই বদলে গেছে।',
      'dynamodb-granted': '{a}-র শর্তসাপেক্ষ পুট সফল: লক {a}-র{tok}। এই RVN যে অপেক্ষমাণ দেখেছে, সে {end} ms-এর পরে এটি দখল করতে পারে।',
      'dynamodb-grantedNoToken': '{a}-র শর্তসাপেক্ষ পুট সফল: লক {a}-র।',
      'dynamodb-lease-expired': 'এক অপেক্ষমাণ নিজের ঘড়িতে লিজের চেয়ে বেশি সময় {a}-র RVN অপরিবর্তিত দেখেছে, তাই আইটেমটি দখল করে নেয়। কোনো সার্ভার কিছুর মেয়াদ শেষ করেনি, আর {a}-কে কেউ জানায় না।',
      'dynamodb-keepalive': '{a}-র হার্টবিট নতুন RVN লেখে: অপেক্ষমাণকে আবার গোড়া থেকে সময় গুনতে হবে।',
      'dynamodb-keepalive-failed': '{a}-র হার্টবিট ফিরিয়ে দেওয়া হয় (ConditionalCheckFailed): আইটেমটি আর {a}-র নয়, আর এখন {a} তা জানে।',
      'dynamodb-released': '{a} তার লক আইটেম মুছে দেয় (তার RVN-এর শর্তে)।',
      'dynamodb-released-failed': '{a}-র মোছার অনুরোধ ফিরিয়ে দেওয়া হয় (ConditionalCheckFailed): তার লক বেদখল হয়ে গেছে।',
    },
  },
};
