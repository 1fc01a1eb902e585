package org.dsload.ycsb;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * What a YCSB Workload element shares with its operation samplers during one test, whatever the
 * store: the workload's state, the one-time set-up (a table to create) that the first load
 * sample performs while the other load threads wait for it, and the bindings the samplers drive
 * it through, for the record the summary reads.
 */
public final class WorkloadRun implements AutoCloseable {
    private final Workload workload;
    private final AtomicBoolean setUpClaimed = new AtomicBoolean();
    private final CompletableFuture<String> setUp = new CompletableFuture<>();
    private final Map<String, Object> defaultSettings;
    /** Each binding used so far, with what it shows of its settings; guarded by this. */
    private final Map<String, String> bindingsUsed = new TreeMap<>();
    private final Consumer<Map<String, String>> onNewBinding;

    public WorkloadRun(Workload workload) {
        this(workload, Map.of(), used -> {
        });
    }

    /**
     * @param defaultSettings the settings of a binding whose samplers name none, by binding name
     * @param onNewBinding    told every binding used so far, with its settings text, at each first use of one
     */
    public WorkloadRun(Workload workload, Map<String, Object> defaultSettings, Consumer<Map<String, String>> onNewBinding) {
        this.workload = workload;
        this.defaultSettings = Map.copyOf(defaultSettings);
        this.onNewBinding = onNewBinding;
    }

    public Workload workload() {
        return workload;
    }

    /**
     * Notes that a sampler drives the workload through {@code binding}; the first use of each is
     * recorded.
     *
     * @param settings what the summary shows of the binding's settings, as {@code name=value} lines
     */
    public synchronized void bindingUsed(String binding, String settings) {
        if (!bindingsUsed.containsKey(binding)) {
            bindingsUsed.put(binding, settings);
            onNewBinding.accept(new TreeMap<>(bindingsUsed)); // in the order of their names
        }
    }

    /**
     * The settings {@code binding} uses when its sampler names none of its own, or null for the
     * binding's defaults (the YCSB Workload of plans saved before the bindings had settings elements
     * carried Cassandra's).
     */
    public Object defaultSettings(String binding) {
        return defaultSettings.get(binding);
    }

    /** True for exactly one caller, who must then call {@link #setUpDone}. */
    boolean claimSetUp() {
        return setUpClaimed.compareAndSet(false, true);
    }

    /** @param failure null when the store is ready, else why not */
    void setUpDone(String failure) {
        setUp.complete(failure);
    }

    /** Null when the store is ready, else why it is not; waits for the claimant up to {@code seconds}. */
    String awaitSetUp(long seconds) {
        try {
            return setUp.get(seconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            return "not ready within " + seconds + " s";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while waiting for it";
        } catch (ExecutionException e) {
            return e.getCause().toString();
        }
    }

    @Override
    public void close() {
        setUp.complete("the test ended");
    }
}
