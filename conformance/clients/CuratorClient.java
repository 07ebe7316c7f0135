// Curator's InterProcessMutex (Apache Curator 5.4, Debian's libcurator-*-java) as a holder or a
// contender, speaking the lines notices.py speaks (held/report, or acquired), with times from
// System.nanoTime(), which HotSpot takes from CLOCK_MONOTONIC on Linux: the conductor's clock.
//
// usage: java -cp JARS CuratorClient.java holder|contender HOST:PORT SESSION_MS LOCK_PATH WATCH_S
//            [--store JSON]
//
// With `--store JSON` (store.py's part for a row that writes: {"port", "key", "debit"}, and for the
// holder "check" and "check_after_s") the holder reads the balance once it holds the lock and, the
// scenario's work after its wake-up later, writes `snapshot − debit` unless its check said no — the
// scenario's `listener` tolerates SUSPENDED (SessionConnectionStateErrorPolicy), so only a LOST heard
// by then says no; the contender reads and writes before it says `acquired`. GET and SET are spoken
// to the row's redis-server over a socket (RESP; no Java redis client is installed here).
//
// The holder notes what Curator tells the application after the pause: the ConnectionStateListener's
// states, isAcquiredInThisProcess() and the client's isConnected() polled every few ms for WATCH_S s,
// whether its lock node still exists (the truth), and what release() does. A JVM has no portable
// SIGCONT hook, so the holder takes its wake-up as the first poll after a gap of over half a second.

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.ExponentialBackoffRetry;

public class CuratorClient {
    static final List<String> events = new ArrayList<>();

    static double now() {
        return System.nanoTime() / 1e9;
    }

    static String str(Object o) {
        return o == null ? "null" : "\"" + o.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    static synchronized void note(String what, String detailJson) {
        events.add("{\"t\": " + now() + ", \"what\": " + str(what) + ", \"detail\": " + detailJson + "}");
    }

    static void say(String kind, String json) {
        System.out.println(kind + " " + json);
        System.out.flush();
    }

    /** Notes each change of a polled value. */
    static final class Change {
        final String name;
        String last;

        Change(String name) {
            this.name = name;
        }

        void see(boolean value) {
            String v = String.valueOf(value);
            if (!v.equals(last)) {
                last = v;
                note(name, v);
            }
        }
    }

    /** store.py's storage on the row's redis-server: a plain GET and SET (policy `none`). */
    static final class Store {
        final String spec;
        final int port;
        final String key;
        long snapshot;
        String wrote = "null";

        Store(String spec) {
            this.spec = spec;
            this.port = Integer.parseInt(field("port"));
            this.key = field("key");
        }

        /** A field of store.py's flat JSON (numbers, strings without quotes inside, or null). */
        String field(String name) {
            Matcher m = Pattern.compile("\"" + name + "\": *(\"([^\"]*)\"|[-0-9.]+|null)").matcher(spec);
            if (!m.find()) {
                return null;
            }
            return m.group(2) != null ? m.group(2) : m.group(1).equals("null") ? null : m.group(1);
        }

        static Store fromArgs(String[] args) {
            for (int i = 0; i + 1 < args.length; i++) {
                if (args[i].equals("--store")) {
                    return new Store(args[i + 1]);
                }
            }
            return null;
        }

        /** One command in RESP; its reply's first line, and a bulk string's value. */
        String call(String... words) throws Exception {
            try (Socket s = new Socket("127.0.0.1", port)) {
                StringBuilder cmd = new StringBuilder("*" + words.length + "\r\n");
                for (String w : words) {
                    cmd.append('$').append(w.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(w).append("\r\n");
                }
                OutputStream out = s.getOutputStream();
                out.write(cmd.toString().getBytes(StandardCharsets.UTF_8));
                out.flush();
                BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                String line = in.readLine();
                if (line.startsWith("-")) {
                    throw new IllegalStateException("redis: " + line);
                }
                return line.startsWith("$") && !line.equals("$-1") ? in.readLine() : line;
            }
        }

        void read() throws Exception {
            snapshot = Long.parseLong(call("GET", key));
        }

        String write() throws Exception {
            long value = snapshot - Long.parseLong(field("debit"));
            call("SET", key, String.valueOf(value));
            wrote = "{\"snapshot\": " + snapshot + ", \"value\": " + value + ", \"t\": " + now() + "}";
            return wrote;
        }

        String report() {
            return ", \"store\": {\"read\": " + snapshot + ", \"wrote\": " + wrote + "}";
        }
    }

    static Store store;
    /** The listener heard LOST (the only state the scenario's tolerant check says no to). */
    static volatile boolean lost;

    public static void main(String[] args) throws Exception {
        String mode = args[0], hosts = args[1], path = args[3];
        int sessionMs = Integer.parseInt(args[2]);
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(hosts)
                .sessionTimeoutMs(sessionMs).connectionTimeoutMs(sessionMs)
                .retryPolicy(new ExponentialBackoffRetry(100, 3)).build();
        client.getConnectionStateListenable().addListener((c, state) -> {
            lost |= state.name().equals("LOST");
            note("listener", str(state));
        });
        store = Store.fromArgs(args);
        client.start();
        client.blockUntilConnected();
        InterProcessMutex mutex = new InterProcessMutex(client, path);
        mutex.acquire();
        String node = mutex.getParticipantNodes().iterator().next();
        if (mode.equals("contender")) {
            double t = now();
            String wrote = "";
            if (store != null) {
                store.read();
                wrote = ", \"wrote\": " + store.write();
            }
            say("acquired", "{\"t\": " + t + ", \"node\": " + str(node) + wrote + "}");
            Thread.sleep(60_000);
            return;
        }
        if (store != null) {
            store.read();
        }
        long session = client.getZookeeperClient().getZooKeeper().getSessionId();
        // The first reading of the clock comes before `held`: the conductor may stop us at once.
        double beforeHeld = now();
        say("held", "{\"node\": " + str(node) + ", \"session\": " + str(Long.toHexString(session)) + "}");
        watch(client, mutex, node, beforeHeld, Double.parseDouble(args[4]));
    }

    static void watch(CuratorFramework client, InterProcessMutex mutex, String node, double last, double watchS)
            throws Exception {
        stuckWatch(Thread.currentThread(), watchS);
        Change acquired = new Change("isAcquiredInThisProcess"), connected = new Change("isConnected");
        double woke = 0;
        boolean checked = store == null;
        double checkAfter = store == null ? 0 : Double.parseDouble(store.field("check_after_s"));
        while (woke == 0 || now() < woke + watchS) {
            acquired.see(mutex.isAcquiredInThisProcess());
            connected.see(client.getZookeeperClient().isConnected());
            double t = now();
            if (woke == 0 && t - last > 0.5) {
                woke = wokeAt = t;
            }
            if (!checked && woke != 0 && t >= woke + checkAfter) {
                // The scenario's check after its work: `listener`, which goes on through SUSPENDED,
                // or `owned` (isAcquiredInThisProcess()), or none.
                checked = true;
                String check = store.field("check");
                boolean saidNo = "listener".equals(check) ? lost
                        : "owned".equals(check) && !mutex.isAcquiredInThisProcess();
                if (!saidNo) {
                    store.write();
                }
            }
            last = t;
            Thread.sleep(3);
        }
        // The raw ZooKeeper handle answers at once (or throws when not connected), where Curator's
        // checkExists() would retry for up to its retry policy's span.
        String exists;
        try {
            exists = String.valueOf(client.getZookeeperClient().getZooKeeper().exists(node, false) != null);
        } catch (Exception e) {
            exists = str("unknown: " + e.getClass().getSimpleName());
        }
        double start = now();
        try {
            mutex.release();
            note("release", "{\"returned\": \"None\", \"took_ms\": " + (now() - start) * 1000 + "}");
        } catch (Exception e) {
            note("release", "{\"raised\": " + str(e.getClass().getSimpleName()) + ", \"message\": "
                    + str(e.getMessage()) + ", \"took_ms\": " + (now() - start) * 1000 + "}");
        }
        long after = client.getZookeeperClient().getZooKeeper().getSessionId();
        report("{\"woke\": " + woke + ", \"events\": " + events + ", \"node_exists_at_end\": " + exists
                + ", \"is_acquired_at_end\": " + acquired.last + ", \"session_after\": "
                + str(Long.toHexString(after)) + (store != null ? store.report() : "") + "}");
        client.close();
    }

    static boolean reported;
    static volatile double wokeAt;

    static synchronized void report(String json) {
        if (!reported) {
            reported = true;
            say("report", json);
        }
    }

    /** A backstop: should a call at the end of the watch not return (Curator retries a lost connection
     *  for a long time), 10 s after the watch this notes where the main thread is, and reports. */
    static void stuckWatch(Thread main, double watchS) {
        Thread t = new Thread(() -> {
            while (wokeAt == 0 || now() < wokeAt + watchS + 10) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
            StringBuilder where = new StringBuilder();
            StackTraceElement[] frames = main.getStackTrace();
            for (int i = 0; i < Math.min(8, frames.length); i++) {
                where.append(i == 0 ? "" : " < ").append(frames[i].getClassName().replaceAll(".*\\.", ""))
                        .append('.').append(frames[i].getMethodName());
            }
            note("stuck", str(where));
            synchronized (CuratorClient.class) {
                report("{\"woke\": " + wokeAt + ", \"events\": " + events + ", \"node_exists_at_end\": "
                        + "\"no answer\", \"is_acquired_at_end\": \"no answer\", \"session_after\": null}");
            }
            Runtime.getRuntime().halt(0);
        }, "stuck-watch");
        t.setDaemon(true);
        t.start();
    }
}
