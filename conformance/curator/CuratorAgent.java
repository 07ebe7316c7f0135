// One client's Curator, for the conformance suite's Curator rows (conformance/src/curator.rs starts it,
// compiled by the suite with javac, one JVM per client). A real CuratorFramework and a real
// InterProcessMutex over the suite's ZooKeeper, driven line by line over stdin and stdout:
//
//   connect ADDR SESSION_MS POLICY  -> ok connected SESSION   POLICY: error (StandardConnectionStateErrorPolicy)
//                                                             or tolerate (SessionConnectionStateErrorPolicy)
//   lock                            -> ok held CZXID PATH SESSION   (InterProcessMutex.acquire: blocks until held)
//   check                           -> ok STATE held | ok STATE lost SINCE   (held: the mutex is held and the
//                                                             error policy has called no state Curator reported
//                                                             since the grant an error state; else SINCE is
//                                                             when it first did, as NANOS below)
//   unlock                          -> ok releasing           (InterProcessMutex.release on the lock's thread:
//                                                             a request sent, as the model's release is; its
//                                                             outcome follows as an `info` line)
//   wait-lost MS                    -> ok STATE               (while SUSPENDED, waits at most MS for what
//                                                             Curator says next: LOST, or RECONNECTED)
//   quit                            -> (closes the client and exits)
//
// and, whenever Curator's ConnectionStateListener is told of a new state, `event STATE NANOS` with
// System.nanoTime() (CLOCK_MONOTONIC on Linux: the clock every process of a run shares). Errors are
// `err TEXT`. Nothing here decides what SUSPENDED or LOST means: Curator's own error policy does.

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateErrorPolicy;
import org.apache.curator.framework.state.SessionConnectionStateErrorPolicy;
import org.apache.curator.framework.state.StandardConnectionStateErrorPolicy;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.data.Stat;

public final class CuratorAgent {
    /** The lock's node, as the suite's other ZooKeeper client uses it (conformance/src/zk.rs). */
    private static final String LOCK_PATH = "/leaselab-lock";

    private final Object stateLock = new Object();
    private ConnectionState last = ConnectionState.CONNECTED;
    /** When Curator first reported a state its error policy calls an error since the lock was
     *  granted (System.nanoTime), or 0: from then on the lock must be treated as lost. */
    private long errorSince;
    private CuratorFramework client;
    private InterProcessMutex mutex;
    /** InterProcessMutex is held by a thread: acquire and release both run on this one. */
    private final ExecutorService lockThread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "lock");
        t.setDaemon(true);
        return t;
    });

    private static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    public static void main(String[] args) throws Exception {
        CuratorAgent agent = new CuratorAgent();
        BufferedReader in =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        // Loads the classes a run uses before the clock starts (the JVM loads lazily, and a first
        // acquire that loads them would fall behind the scenario's timeline).
        agent.warmUp();
        say("ready");
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split("\\s+");
            if (w[0].equals("quit")) {
                break;
            }
            try {
                say("ok " + agent.command(w));
            } catch (Exception e) {
                say("err " + String.valueOf(e).replace('\n', ' '));
            }
        }
        agent.close();
        System.exit(0);
    }

    private void warmUp() {
        CuratorFramework idle = CuratorFrameworkFactory.newClient("127.0.0.1:1", new RetryOneTime(1));
        new InterProcessMutex(idle, LOCK_PATH);
        new StandardConnectionStateErrorPolicy().isErrorState(ConnectionState.SUSPENDED);
        new SessionConnectionStateErrorPolicy().isErrorState(ConnectionState.SUSPENDED);
    }

    private String command(String[] w) throws Exception {
        switch (w[0]) {
            case "connect":
                return connect(w[1], Integer.parseInt(w[2]), w[3]);
            case "lock":
                return lock();
            case "check":
                return check();
            case "unlock":
                return unlock();
            case "wait-lost":
                return waitLost(Long.parseLong(w[1]));
            default:
                throw new IllegalArgumentException("unexpected command " + String.join(" ", w));
        }
    }

    private String connect(String addr, int sessionMs, String policy) throws Exception {
        ConnectionStateErrorPolicy errorPolicy;
        if (policy.equals("tolerate")) {
            errorPolicy = new SessionConnectionStateErrorPolicy();
        } else if (policy.equals("error")) {
            errorPolicy = new StandardConnectionStateErrorPolicy();
        } else {
            throw new IllegalArgumentException("policy must be error or tolerate, not " + policy);
        }
        // The connection timeout is the session timeout: Curator's own default (15 s) is longer than
        // the sessions the rows use, and ZooKeeper's client bounds a connection attempt by the
        // session timeout anyway (ClientCnxn's connectTimeout, one server).
        client = CuratorFrameworkFactory.builder()
                .connectString(addr)
                .sessionTimeoutMs(sessionMs)
                .connectionTimeoutMs(sessionMs)
                .retryPolicy(new RetryOneTime(100))
                .connectionStateErrorPolicy(errorPolicy)
                .build();
        client.getConnectionStateListenable().addListener((c, state) -> {
            long at = System.nanoTime();
            // The event line first: an answer that depends on the new state (wait-lost's `ok LOST`) must
            // not reach the suite before the event it follows from, or the row misses the moment.
            say("event " + state + " " + at);
            synchronized (stateLock) {
                last = state;
                if (errorSince == 0 && c.getConnectionStateErrorPolicy().isErrorState(state)) {
                    errorSince = at;
                }
                stateLock.notifyAll();
            }
        });
        client.start();
        if (!client.blockUntilConnected(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("not connected to " + addr + " within 10 s");
        }
        mutex = new InterProcessMutex(client, LOCK_PATH);
        return "connected " + Long.toHexString(sessionId());
    }

    private long sessionId() throws Exception {
        return client.getZookeeperClient().getZooKeeper().getSessionId();
    }

    /** InterProcessMutex.acquire; then the node it holds by: the lowest child, this session's. */
    private String lock() throws Exception {
        try {
            lockThread.submit(() -> {
                mutex.acquire();
                return null;
            }).get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw (Exception) e.getCause();
        }
        synchronized (stateLock) {
            errorSince = 0;
        }
        List<String> children = client.getChildren().forPath(LOCK_PATH);
        children.sort(Comparator.comparing(CuratorAgent::sequence));
        String path = LOCK_PATH + "/" + children.get(0);
        Stat stat = client.checkExists().forPath(path);
        long session = sessionId();
        if (stat == null || stat.getEphemeralOwner() != session) {
            throw new IllegalStateException("the lowest node " + path + " is not this session's");
        }
        return "held " + stat.getCzxid() + " " + path + " " + Long.toHexString(session);
    }

    /** Curator's lock nodes end in a ten-digit sequence after a random prefix: order by it. */
    private static String sequence(String name) {
        return name.length() >= 10 ? name.substring(name.length() - 10) : name;
    }

    private String check() {
        ConnectionState state;
        long since;
        synchronized (stateLock) {
            state = last;
            since = errorSince;
        }
        boolean held = mutex.isAcquiredInThisProcess() && since == 0;
        return state + (held ? " held" : " lost " + since);
    }

    private String unlock() {
        lockThread.submit(() -> {
            try {
                mutex.release();
                say("info release: node deleted");
            } catch (Exception e) {
                say("info release: " + String.valueOf(e).replace('\n', ' '));
            }
        });
        return "releasing";
    }

    private String waitLost(long ms) throws InterruptedException {
        long end = System.nanoTime() + ms * 1_000_000L;
        synchronized (stateLock) {
            while (last == ConnectionState.SUSPENDED) {
                long left = (end - System.nanoTime()) / 1_000_000L;
                if (left <= 0) {
                    break;
                }
                stateLock.wait(left);
            }
            return String.valueOf(last);
        }
    }

    private void close() {
        if (client != null) {
            client.close();
        }
    }
}
