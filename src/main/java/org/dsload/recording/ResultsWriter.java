package org.dsload.recording;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

import org.apache.jmeter.JMeter;
import org.apache.jmeter.engine.StandardJMeterEngine;
import org.apache.jmeter.reporters.ResultCollector;
import org.apache.jmeter.reporters.Summariser;
import org.apache.jmeter.samplers.SampleEvent;
import org.apache.jmeter.samplers.SampleResult;
import org.apache.jmeter.samplers.SampleSaveConfiguration;
import org.apache.jmeter.save.CSVSaveService;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.threads.JMeterContextService;
import org.dsload.core.format.GaugeTable;
import org.dsload.live.LiveListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The results file of a run, in JMeter's exact CSV format (the header is its CSVSaveService's, each
 * row the same characters, {@link CsvRow}, with the save settings of JMeter's own results writer), written without a lock
 * shared by the sampler threads: each thread formats its rows into a buffer of its own, and one
 * writer thread moves every buffer to the file several times a second. JMeter's own writer
 * appends every row under one lock, which a descheduled thread can hold while all others wait.
 *
 * <p>What a stop costs: rows reach the operating system every {@value #DRAIN_MILLIS} ms, so a
 * killed JMeter ({@code kill -9}) loses at most that much; on Ctrl-C (or any JVM exit) a shutdown
 * hook lets the samples under way end (up to {@value #EXIT_GRACE_MILLIS} ms) and writes everything
 * buffered. A write that fails (a full disk) stops the test with a message saying which file and
 * why, instead of a results file that silently ends early.
 *
 * <p>The dsload runner adds it to the plan it runs in place of JMeter's {@code -l} writer, with
 * the summariser JMeter would have given that writer, so a distributed run still sends every
 * sample to the master once.
 */
public class ResultsWriter extends ResultCollector {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(ResultsWriter.class);
    /** Element property: the name of the summariser to feed ({@code summary +} lines), empty for none. */
    public static final String SUMMARISER = "dsload.summariser";
    /** Element property: whether the writer also feeds the run's live figures ({@link LiveListener}). */
    public static final String LIVE = "dsload.live";
    static final long DRAIN_MILLIS = 200;
    /** How long a JVM that exits (Ctrl-C) waits for the samples under way to end and be written. */
    static final long EXIT_GRACE_MILLIS = 1000;
    /** The host a local engine gives testStarted; a distributed run's slaves give their own. */
    private static final String LOCAL = "*local*";
    /** Characters buffered by all threads together before a sampler thread waits for the writer. */
    static final long MAX_BUFFERED_CHARS = 32L * 1024 * 1024;

    /** The shared state of one open file (transient: the element itself travels to slaves in a distributed run). */
    private transient volatile OpenFile file;
    private transient Summariser summariser;
    /** The live figures this writer's samples go to, or null. */
    private transient LiveListener live;
    private transient int starts;
    /** Whether this writer is a master's copy for a remote engine: only there can one engine's end end the others'. */
    private transient volatile boolean remote;
    /**
     * The files open in this JVM, by path, with how many writers share each: a distributed run's
     * master can hold several copies of the writer (one per slave's copy of the plan), and all of
     * them append to the one file, which gets one header.
     */
    private static final Map<Path, OpenFile> OPEN = new HashMap<>();

    /**
     * One thread's rows not yet written. The writer takes the whole builder and leaves an empty one
     * in its place, so the owner never waits for more than that swap.
     */
    private static final class Buffer {
        final Thread owner = Thread.currentThread();
        StringBuilder text = new StringBuilder(8192);
        /** An emptied builder the writer gives back, to be swapped in next time. */
        StringBuilder spare = new StringBuilder(8192);
    }

    private static final class OpenFile {
        final Path path;
        final FileChannel channel;
        final Charset charset;
        final SampleSaveConfiguration config;
        final ConcurrentLinkedQueue<Buffer> buffers = new ConcurrentLinkedQueue<>();
        final ThreadLocal<Buffer> mine = new ThreadLocal<>();
        final Thread writer;
        final Thread hook;
        final boolean distributed;
        volatile boolean open = true;
        volatile String failure;
        /** Writers sharing the file (guarded by {@link #OPEN}). */
        int users;

        OpenFile(Path path, FileChannel channel, Charset charset, SampleSaveConfiguration config, boolean distributed) {
            this.distributed = distributed;
            this.path = path;
            this.channel = channel;
            this.charset = charset;
            this.config = config;
            this.writer = new Thread(this::drainEvery, "dsload-results-writer");
            writer.setDaemon(true);
            this.hook = new Thread(this::drainAtExit, "dsload-results-writer-exit");
        }

        private static int pending(Buffer b) {
            synchronized (b) {
                return b.text.length();
            }
        }

        void append(SampleEvent event) {
            Buffer b = mine.get();
            if (b == null) {
                b = new Buffer();
                mine.set(b);
                buffers.add(b);
            }
            int length;
            synchronized (b) {
                int before = b.text.length();
                try {
                    CsvRow.append(b.text, event, config);
                } catch (RuntimeException e) {
                    b.text.setLength(before); // no part of a row in the file
                    throw e;
                }
                length = b.text.append('\n').length();
            }
            if (length > MAX_BUFFERED_CHARS / Math.max(1, buffers.size())) {
                // the disk is slower than the load: wait for the writer rather than fill the heap
                while (open && failure == null && pending(b) > MAX_BUFFERED_CHARS / Math.max(1, buffers.size()) / 2) {
                    LockSupport.unpark(writer);
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
            }
        }

        private void drainEvery() {
            while (open) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS));
                drain();
            }
        }

        /** Moves every buffer to the file; false once writing failed. */
        synchronized boolean drain() {
            if (failure != null) {
                return false;
            }
            try {
                for (Iterator<Buffer> it = buffers.iterator(); it.hasNext();) {
                    Buffer b = it.next();
                    StringBuilder chunk;
                    synchronized (b) {
                        if (b.text.length() == 0) {
                            if (!b.owner.isAlive()) {
                                it.remove();
                            }
                            continue;
                        }
                        chunk = b.text;
                        b.text = b.spare != null ? b.spare : new StringBuilder(8192);
                        b.spare = null;
                    }
                    // String.getBytes copies a Latin-1 string of ASCII rows as it is; a CharBuffer
                    // over the builder goes through the encoder one char at a time, five times slower
                    ByteBuffer bytes = ByteBuffer.wrap(chunk.toString().getBytes(charset));
                    while (bytes.hasRemaining()) {
                        channel.write(bytes);
                    }
                    chunk.setLength(0);
                    synchronized (b) {
                        b.spare = chunk;
                    }
                }
                return true;
            } catch (IOException e) {
                failed(e);
                return false;
            }
        }

        private void failed(IOException e) {
            failure = "dsload: cannot write the results file " + path + ": " + e.getMessage() + ". The test is "
                    + "stopped rather than go on with a results file that silently ends here; make room in "
                    + path.getParent() + " and run it again.";
            log.error(failure, e);
            System.err.println(failure); // NOSONAR the console is where a person running the test looks
            buffers.clear();
            stopTest(distributed);
        }

        /**
         * Ctrl-C: a sample under way when the signal came (a reply the server has sent and the thread has not
         * read yet) still gets its row. The engine's threads are asked to stop after their current sample, and
         * the rows they add are taken for up to {@value #EXIT_GRACE_MILLIS} ms before the file is closed.
         */
        private void drainAtExit() {
            drainAtExit(JMeterContextService::getNumberOfThreads);
        }

        void drainAtExit(IntSupplier threadsRunning) {
            if (!distributed) {
                StandardJMeterEngine.stopEngine();
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EXIT_GRACE_MILLIS);
                while (threadsRunning.getAsInt() > 0 && deadline - System.nanoTime() > 0) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                }
            }
            open = false;
            drain();
            closeChannel();
        }

        void close() {
            open = false;
            LockSupport.unpark(writer);
            try {
                writer.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            drain();
            closeChannel();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it has written everything
            }
        }

        private synchronized void closeChannel() {
            try {
                if (channel.isOpen()) {
                    channel.close();
                }
            } catch (IOException e) {
                log.warn("dsload: closing {}: {}", path, e.toString());
            }
        }
    }

    /**
     * Stops the test of this JVM: the local engine; the master of a distributed run has none, so it
     * ends (JMeter's shutdown hooks close its other files) and the slaves find it gone.
     */
    private static void stopTest(boolean distributed) {
        if (!distributed) {
            StandardJMeterEngine.stopEngineNow();
        } else if (JMeter.isNonGUI()) {
            Thread exit = new Thread(() -> System.exit(2), "dsload-results-writer-stop");
            exit.setDaemon(true);
            exit.start();
        }
    }

    public ResultsWriter() {
        super();
    }

    /** What the exit hook of the open file does, with the engine's running threads counted by {@code threadsRunning}. */
    void exitHook(IntSupplier threadsRunning) {
        OpenFile f = file;
        if (f != null) {
            f.drainAtExit(threadsRunning);
        }
    }

    @Override
    public void testStarted() {
        testStarted(LOCAL);
    }

    @Override
    public synchronized void testStarted(String host) {
        EndForAll.started(host);
        if (starts++ == 0) {
            String name = getPropertyAsString(SUMMARISER);
            summariser = name.isBlank() ? null : new Summariser(name);
            live = getPropertyAsBoolean(LIVE) ? new LiveListener() : null;
            remote = !LOCAL.equals(host);
            try {
                file = share(remote);
            } catch (IOException e) {
                String problem = "dsload: cannot open the results file " + getFilename() + ": " + e.getMessage();
                log.error(problem, e);
                System.err.println(problem); // NOSONAR as above
                stopTest(remote);
            }
        }
        if (summariser != null) {
            summariser.testStarted(host);
        }
        if (live != null) {
            live.testStarted(host);
        }
    }

    /** The file this writer names, opened by the first writer that names it and shared by the others. */
    private OpenFile share(boolean distributed) throws IOException {
        Path path = Path.of(getFilename()).toAbsolutePath().normalize();
        synchronized (OPEN) {
            OpenFile f = OPEN.get(path);
            if (f == null || !f.open) {
                f = open(path, distributed);
                OPEN.put(path, f);
            }
            f.users++;
            return f;
        }
    }

    /** This writer no longer writes to {@code f}: the last of its writers closes it. */
    private static void release(OpenFile f) {
        synchronized (OPEN) {
            if (--f.users > 0) {
                return;
            }
            OPEN.remove(f.path, f);
        }
        f.close();
    }

    private OpenFile open(Path path, boolean distributed) throws IOException {
        Files.createDirectories(path.getParent());
        SampleSaveConfiguration config = getSaveConfig();
        if (config.saveAsXml()) {
            throw new IOException("dsload writes CSV results (its summary reads CSV); drop "
                    + "jmeter.save.saveservice.output_format=xml from the run's properties");
        }
        Charset charset = Charset.forName(SaveService.getFileEncoding(StandardCharsets.UTF_8.name()));
        boolean fresh = !Files.exists(path) || Files.size(path) == 0;
        FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        if (fresh) {
            ByteBuffer header = charset.encode(CSVSaveService.printableFieldNamesToString(config) + "\n");
            while (header.hasRemaining()) {
                channel.write(header);
            }
        }
        OpenFile opened = new OpenFile(path, channel, charset, config, distributed);
        Runtime.getRuntime().addShutdownHook(opened.hook);
        opened.writer.start();
        log.info("dsload: results into {}, one writer thread fed by a buffer per sampler thread", path);
        return opened;
    }

    @Override
    public void sampleOccurred(SampleEvent event) {
        OpenFile f = file;
        SampleResult result = event.getResult();
        if (GaugeTable.isStreamLabel(result.getSampleLabel())) {
            // a slave's server gauges on their way to the live figures: no request, no row
            LiveListener l = live;
            if (l != null) {
                l.sampleOccurred(event);
            }
            return;
        }
        if (f != null && f.open && f.failure == null && isSampleWanted(result.isSuccessful())) {
            result.setSaveConfig(f.config);
            f.append(event);
        }
        if (summariser != null) {
            summariser.sampleOccurred(event);
        }
        if (remote) {
            EndForAll.sampled(result);
        }
        LiveListener l = live;
        if (l != null) {
            l.sampleOccurred(event);
        }
    }

    @Override
    public void testEnded() {
        testEnded(LOCAL);
    }

    @Override
    public synchronized void testEnded(String host) {
        if (summariser != null) {
            summariser.testEnded(host);
        }
        if (live != null) {
            live.testEnded(host);
        }
        EndForAll.ended(host);
        if (--starts == 0 && file != null) {
            OpenFile f = file;
            file = null;
            release(f);
        }
    }

    /** How many writers share the open file at {@code path}, 0 when it is not open (for tests). */
    static int users(Path path) {
        synchronized (OPEN) {
            OpenFile f = OPEN.get(path.toAbsolutePath().normalize());
            return f == null ? 0 : f.users;
        }
    }

    /** Why writing stopped, or null while it works (for tests). */
    String failure() {
        OpenFile f = file;
        return f == null ? null : f.failure;
    }
}
