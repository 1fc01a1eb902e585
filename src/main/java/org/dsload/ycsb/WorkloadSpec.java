package org.dsload.ycsb;

import java.util.Locale;
import java.util.Map;

/**
 * Everything that defines a YCSB-style workload, with YCSB's property names in
 * {@link #describe()} so a run can be compared with a YCSB run of the same settings.
 *
 * @param insertCount    records the load phase inserts, from insertStart
 * @param operationCount run-phase operations across all threads; 0 for no limit (the run's duration decides)
 * @param insertionRetryLimit    times a failed load-phase insert is tried again (YCSB
 *                               core_workload_insertion_retry_limit); 0: the first failure ends the load
 * @param insertionRetryInterval seconds before each retry, YCSB's jitter of 0.8 to 1.2 times it included
 *                               (core_workload_insertion_retry_interval)
 */
public record WorkloadSpec(String preset, String table, long recordCount, long insertStart, long insertCount,
        long operationCount, int fieldCount, int fieldLength, int minFieldLength, String fieldLengthDistribution,
        boolean readAllFields, boolean writeAllFields, Map<Operation, Double> proportions, String requestDistribution,
        double hotspotDataFraction, double hotspotOpnFraction, int minScanLength, int maxScanLength,
        String scanLengthDistribution, boolean orderedInserts, int zeroPadding, long seed, int insertionRetryLimit,
        double insertionRetryInterval) {

    public static final String[] REQUEST_DISTRIBUTIONS = {"uniform", "zipfian", "latest", "hotspot", "sequential"};
    public static final String[] LENGTH_DISTRIBUTIONS = {"constant", "uniform", "zipfian"};
    /** YCSB's defaults: no insertion retry, 3 s between retries. */
    public static final int DEFAULT_RETRY_LIMIT = 0;
    public static final double DEFAULT_RETRY_INTERVAL = 3;

    /** A workload with YCSB's default insertion retries (none). */
    public WorkloadSpec(String preset, String table, long recordCount, long insertStart, long insertCount,
            long operationCount, int fieldCount, int fieldLength, int minFieldLength, String fieldLengthDistribution,
            boolean readAllFields, boolean writeAllFields, Map<Operation, Double> proportions, String requestDistribution,
            double hotspotDataFraction, double hotspotOpnFraction, int minScanLength, int maxScanLength,
            String scanLengthDistribution, boolean orderedInserts, int zeroPadding, long seed) {
        this(preset, table, recordCount, insertStart, insertCount, operationCount, fieldCount, fieldLength,
                minFieldLength, fieldLengthDistribution, readAllFields, writeAllFields, proportions, requestDistribution,
                hotspotDataFraction, hotspotOpnFraction, minScanLength, maxScanLength, scanLengthDistribution,
                orderedInserts, zeroPadding, seed, DEFAULT_RETRY_LIMIT, DEFAULT_RETRY_INTERVAL);
    }

    /** @throws IllegalArgumentException with the property at fault first, then a colon */
    public WorkloadSpec {
        check(recordCount >= 1, "recordCount:must be at least 1");
        check(insertStart >= 0, "insertStart:must be at least 0");
        check(insertCount >= 0 && insertStart + insertCount <= recordCount,
                "insertCount:must keep insert start + insert count within the record count (" + recordCount + ")");
        check(operationCount >= 0, "operationCount:must be at least 0");
        check(fieldCount >= 1, "fieldCount:must be at least 1");
        check(fieldLength >= 1 && minFieldLength >= 1 && minFieldLength <= fieldLength,
                "fieldLength:must be at least the minimum field length (" + minFieldLength + ")");
        check(minScanLength >= 1 && minScanLength <= maxScanLength, "maxScanLength:must be at least the minimum scan length");
        check(hotspotDataFraction >= 0 && hotspotDataFraction <= 1, "hotspotDataFraction:must be from 0 to 1");
        check(hotspotOpnFraction >= 0 && hotspotOpnFraction <= 1, "hotspotOpnFraction:must be from 0 to 1");
        check(zeroPadding >= 1, "zeroPadding:must be at least 1");
        check(insertionRetryLimit >= 0, "insertionRetryLimit:must be at least 0");
        check(insertionRetryInterval >= 0, "insertionRetryInterval:must be at least 0");
        check(!requestDistribution.equals("latest") || insertStart == 0,
                "requestDistribution:latest needs the records from 0 (insert start 0)");
        proportions = Map.copyOf(proportions);
        new OperationMix(proportions); // refuses all-zero or negative proportions
    }

    private static void check(boolean ok, String problem) {
        if (!ok) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** The settings as YCSB properties, one per line. */
    public String describe() {
        StringBuilder text = new StringBuilder();
        line(text, "workload", preset);
        line(text, "table", table);
        line(text, "recordcount", recordCount);
        line(text, "insertstart", insertStart);
        line(text, "insertcount", insertCount);
        line(text, "operationcount", operationCount);
        line(text, "fieldcount", fieldCount);
        line(text, "fieldlength", fieldLength);
        line(text, "minfieldlength", minFieldLength);
        line(text, "fieldlengthdistribution", fieldLengthDistribution);
        line(text, "readallfields", readAllFields);
        line(text, "writeallfields", writeAllFields);
        line(text, "readproportion", proportion(Operation.READ));
        line(text, "updateproportion", proportion(Operation.UPDATE));
        line(text, "insertproportion", proportion(Operation.INSERT));
        line(text, "scanproportion", proportion(Operation.SCAN));
        line(text, "readmodifywriteproportion", proportion(Operation.READ_MODIFY_WRITE));
        line(text, "requestdistribution", requestDistribution);
        if (requestDistribution.equals("hotspot")) {
            line(text, "hotspotdatafraction", hotspotDataFraction);
            line(text, "hotspotopnfraction", hotspotOpnFraction);
        }
        line(text, "minscanlength", minScanLength);
        line(text, "maxscanlength", maxScanLength);
        line(text, "scanlengthdistribution", scanLengthDistribution);
        line(text, "insertorder", orderedInserts ? "ordered" : "hashed");
        line(text, "zeropadding", zeroPadding);
        line(text, "seed", seed);
        line(text, "core_workload_insertion_retry_limit", insertionRetryLimit);
        // whole seconds as YCSB writes them (it reads an integer)
        line(text, "core_workload_insertion_retry_interval", insertionRetryInterval == Math.rint(insertionRetryInterval)
                ? (Object) (long) insertionRetryInterval : insertionRetryInterval);
        return text.toString();
    }

    public double proportion(Operation op) {
        return proportions.getOrDefault(op, 0.0);
    }

    private static void line(StringBuilder text, String name, Object value) {
        String v = value instanceof Double d ? String.format(Locale.ROOT, "%.4f", d).replaceAll("0+$", "").replaceAll("\\.$", ".0")
                : String.valueOf(value);
        text.append(name).append('=').append(v).append('\n');
    }
}
