package org.dsload.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Run folders with a results file in rows mode, written second by second from a seed, so a test of
 * the statistics knows what it compares: each label's requests per second and the spread of their
 * latencies.
 */
public final class SyntheticRuns {
    static final long T0 = 1_700_000_000_000L;
    private static final String HEADER =
            "timeStamp,elapsed,label,responseCode,responseMessage,success,bytes,sentBytes,SampleCount,dsload_timing";

    private final List<String> rows = new ArrayList<>(List.of(HEADER));
    private final Random random;

    public SyntheticRuns(long seed) {
        this.random = new Random(seed);
    }

    /**
     * {@code perSecond} requests of {@code label} in each of {@code seconds} seconds, spread over the
     * second, each taking {@code baseMicros} plus up to {@code spreadMicros} more (uniformly, from the seed).
     */
    public SyntheticRuns label(String label, int seconds, int perSecond, long baseMicros, long spreadMicros) {
        for (int s = 0; s < seconds; s++) {
            for (int i = 0; i < perSecond; i++) {
                long start = T0 + s * 1000L + i * 1000L / perSecond;
                long micros = baseMicros + (long) (random.nextDouble() * spreadMicros);
                rows.add(start + "," + micros / 1000 + "," + label + ",OK,OK,true,100,20,1," + start + ":" + micros);
            }
        }
        return this;
    }

    /** Writes the results into {@code runDir/<plan>.jtl} with a run record naming the plan, as dsload run does. */
    public Path write(Path runDir, String plan) throws IOException {
        Files.createDirectories(runDir);
        Files.writeString(runDir.resolve("run.properties"), "plan=/plans/" + plan + ".jmx\n", StandardCharsets.UTF_8);
        Path jtl = runDir.resolve(plan + ".jtl");
        Files.write(jtl, rows, StandardCharsets.UTF_8);
        return jtl;
    }
}
