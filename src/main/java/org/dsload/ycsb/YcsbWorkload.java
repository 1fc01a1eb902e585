package org.dsload.ycsb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

import org.apache.jmeter.gui.TestElementMetadata;
import org.apache.jmeter.util.JMeterUtils;
import org.dsload.core.ClientConfigElement;
import org.dsload.core.Fields;
import org.dsload.core.format.RunProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * YCSB Workload: the settings of a YCSB CoreWorkload (a preset A to F, overridable property by
 * property) and the state its YCSB Operation samplers share during a test ({@link WorkloadRun}),
 * whichever store they drive: a binding's own settings belong to the binding. When the plan runs
 * under the dsload runner, the settings, and the bindings that drove the workload with theirs,
 * are written beside the results ({@value #RUN_FILE}) for the summary.
 */
@TestElementMetadata(labelResource = "displayName")
public class YcsbWorkload extends ClientConfigElement<WorkloadRun> {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(YcsbWorkload.class);
    /** The workload's settings in the run's folder, read by the summary's YCSB section. */
    public static final String RUN_FILE = YcsbSection.FILE;
    /** Most retries of one insert, and the longest interval between them: bounds that catch a typo. */
    static final int MAX_RETRY_LIMIT = 1000;
    static final double MAX_RETRY_INTERVAL_SECONDS = 3600;

    private String workload = "a";
    private String table = "usertable";
    private String recordCount = "1000";
    private String insertStart = "0";
    private String insertCount = "";
    private String operationCount = "0";
    private String fieldCount = "10";
    private String fieldLength = "100";
    private String minFieldLength = "1";
    private String fieldLengthDistribution = "constant";
    private String readAllFields = "true";
    private String writeAllFields = "false";
    private String readProportion = "";
    private String updateProportion = "";
    private String insertProportion = "";
    private String scanProportion = "";
    private String readModifyWriteProportion = "";
    private String requestDistribution = "";
    private String hotspotDataFraction = "0.2";
    private String hotspotOpnFraction = "0.8";
    private String minScanLength = "1";
    private String maxScanLength = "";
    private String scanLengthDistribution = "uniform";
    private String insertOrder = "hashed";
    private String zeroPadding = "1";
    private String seed = "1";
    private String insertionRetryLimit = "0";
    private String insertionRetryInterval = "3";

    @Override
    protected WorkloadRun open(Fields f) {
        Preset preset;
        try {
            preset = Preset.of(f.required("workload", workload));
        } catch (IllegalArgumentException e) {
            throw f.error("workload", e.getMessage());
        }
        long records = f.longValue("recordCount", recordCount, 1, Long.MAX_VALUE);
        long start = f.longValue("insertStart", insertStart, 0, Long.MAX_VALUE);
        long count = f.text("insertCount", insertCount).isEmpty() ? records - start
                : f.longValue("insertCount", insertCount, 0, Long.MAX_VALUE);
        Map<Operation, Double> proportions = new EnumMap<>(Operation.class);
        proportions.put(Operation.READ, proportion(f, "readProportion", readProportion, preset, Operation.READ));
        proportions.put(Operation.UPDATE, proportion(f, "updateProportion", updateProportion, preset, Operation.UPDATE));
        proportions.put(Operation.INSERT, proportion(f, "insertProportion", insertProportion, preset, Operation.INSERT));
        proportions.put(Operation.SCAN, proportion(f, "scanProportion", scanProportion, preset, Operation.SCAN));
        proportions.put(Operation.READ_MODIFY_WRITE, proportion(f, "readModifyWriteProportion",
                readModifyWriteProportion, preset, Operation.READ_MODIFY_WRITE));
        String distribution = f.text("requestDistribution", requestDistribution).isEmpty() ? preset.requestDistribution()
                : f.choice("requestDistribution", requestDistribution, WorkloadSpec.REQUEST_DISTRIBUTIONS);
        int maxScan = f.text("maxScanLength", maxScanLength).isEmpty() ? preset.maxScanLength()
                : f.integer("maxScanLength", maxScanLength, 1, Integer.MAX_VALUE);
        String tableName = f.required("table", table);
        if (!tableName.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw f.error("table", "must be a plain name (letters, digits, _), which every binding takes as it is, got '"
                    + tableName + "'");
        }

        WorkloadSpec spec;
        try {
            spec = new WorkloadSpec("workload" + preset.name().toLowerCase(Locale.ROOT), tableName, records,
                    start, count, f.longValue("operationCount", operationCount, 0, Long.MAX_VALUE),
                    f.integer("fieldCount", fieldCount, 1, 1000), f.integer("fieldLength", fieldLength, 1, Integer.MAX_VALUE),
                    f.integer("minFieldLength", minFieldLength, 1, Integer.MAX_VALUE),
                    f.choice("fieldLengthDistribution", fieldLengthDistribution, WorkloadSpec.LENGTH_DISTRIBUTIONS),
                    f.flag("readAllFields", readAllFields), f.flag("writeAllFields", writeAllFields), proportions,
                    distribution, fraction(f, "hotspotDataFraction", hotspotDataFraction),
                    fraction(f, "hotspotOpnFraction", hotspotOpnFraction),
                    f.integer("minScanLength", minScanLength, 1, Integer.MAX_VALUE), maxScan,
                    f.choice("scanLengthDistribution", scanLengthDistribution, "uniform", "zipfian"),
                    f.choice("insertOrder", insertOrder, "hashed", "ordered").equals("ordered"),
                    f.integer("zeroPadding", zeroPadding, 1, 64), f.longValue("seed", seed, Long.MIN_VALUE, Long.MAX_VALUE),
                    // plans saved before these fields existed leave them empty: YCSB's defaults
                    f.integer("insertionRetryLimit", Fields.orDefault(insertionRetryLimit, "0"), 0, MAX_RETRY_LIMIT),
                    decimal(f, "insertionRetryInterval", Fields.orDefault(insertionRetryInterval, "3"), 0,
                            MAX_RETRY_INTERVAL_SECONDS));
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            int colon = message.indexOf(':');
            throw colon > 0 ? f.error(message.substring(0, colon), message.substring(colon + 1)) : f.error("workload", message);
        }
        Workload state;
        try {
            state = new Workload(spec);
        } catch (IllegalArgumentException e) {
            throw f.error("requestDistribution", e.getMessage());
        }
        String header = "# " + getName() + ": YCSB workload " + preset.name().toLowerCase(Locale.ROOT)
                + " (" + preset.description() + ")\n" + spec.describe();
        record(header);
        return new WorkloadRun(state, bindingDefaults(f), bindings -> record(header + "binding="
                + String.join(",", bindings.keySet()) + "\n" + String.join("", bindings.values())));
    }

    /**
     * The settings of the bindings whose samplers name no settings element, by binding name; none
     * here. The element of plans saved before the bindings had settings of their own keeps its
     * Cassandra fields this way.
     */
    protected Map<String, Object> bindingDefaults(Fields f) {
        return Map.of();
    }

    private static double proportion(Fields f, String property, String raw, Preset preset, Operation op) {
        return f.text(property, raw).isEmpty() ? preset.proportion(op) : decimal(f, property, raw, 0, Double.MAX_VALUE);
    }

    private static double fraction(Fields f, String property, String raw) {
        return decimal(f, property, raw, 0, 1);
    }

    private static double decimal(Fields f, String property, String raw, double min, double max) {
        double parsed = f.number(property, raw);
        if (!(parsed >= min && parsed <= max)) {
            throw f.error(property, "must be from " + min + (max == Double.MAX_VALUE ? " up" : " to " + max) + ", got "
                    + f.text(property, raw));
        }
        return parsed;
    }

    /**
     * Leaves the settings beside the results when a dsload runner names the run's folder: at test
     * start, and again at the first use of each binding, with that binding's own settings.
     */
    private void record(String text) {
        String dir = JMeterUtils.getProperty(RunProperties.RUN_DIR);
        if (dir == null || dir.isBlank()) {
            return;
        }
        try {
            Files.writeString(Path.of(dir).resolve(RUN_FILE), text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            log.warn("dsload: cannot write {} into {}: {}", RUN_FILE, dir, e.toString());
        }
    }

    public String getWorkload() {
        return workload;
    }

    public void setWorkload(String workload) {
        this.workload = workload;
    }

    public String getTable() {
        return table;
    }

    public void setTable(String table) {
        this.table = table;
    }

    public String getRecordCount() {
        return recordCount;
    }

    public void setRecordCount(String recordCount) {
        this.recordCount = recordCount;
    }

    public String getInsertStart() {
        return insertStart;
    }

    public void setInsertStart(String insertStart) {
        this.insertStart = insertStart;
    }

    public String getInsertCount() {
        return insertCount;
    }

    public void setInsertCount(String insertCount) {
        this.insertCount = insertCount;
    }

    public String getOperationCount() {
        return operationCount;
    }

    public void setOperationCount(String operationCount) {
        this.operationCount = operationCount;
    }

    public String getFieldCount() {
        return fieldCount;
    }

    public void setFieldCount(String fieldCount) {
        this.fieldCount = fieldCount;
    }

    public String getFieldLength() {
        return fieldLength;
    }

    public void setFieldLength(String fieldLength) {
        this.fieldLength = fieldLength;
    }

    public String getMinFieldLength() {
        return minFieldLength;
    }

    public void setMinFieldLength(String minFieldLength) {
        this.minFieldLength = minFieldLength;
    }

    public String getFieldLengthDistribution() {
        return fieldLengthDistribution;
    }

    public void setFieldLengthDistribution(String fieldLengthDistribution) {
        this.fieldLengthDistribution = fieldLengthDistribution;
    }

    public String getReadAllFields() {
        return readAllFields;
    }

    public void setReadAllFields(String readAllFields) {
        this.readAllFields = readAllFields;
    }

    public String getWriteAllFields() {
        return writeAllFields;
    }

    public void setWriteAllFields(String writeAllFields) {
        this.writeAllFields = writeAllFields;
    }

    public String getReadProportion() {
        return readProportion;
    }

    public void setReadProportion(String readProportion) {
        this.readProportion = readProportion;
    }

    public String getUpdateProportion() {
        return updateProportion;
    }

    public void setUpdateProportion(String updateProportion) {
        this.updateProportion = updateProportion;
    }

    public String getInsertProportion() {
        return insertProportion;
    }

    public void setInsertProportion(String insertProportion) {
        this.insertProportion = insertProportion;
    }

    public String getScanProportion() {
        return scanProportion;
    }

    public void setScanProportion(String scanProportion) {
        this.scanProportion = scanProportion;
    }

    public String getReadModifyWriteProportion() {
        return readModifyWriteProportion;
    }

    public void setReadModifyWriteProportion(String readModifyWriteProportion) {
        this.readModifyWriteProportion = readModifyWriteProportion;
    }

    public String getRequestDistribution() {
        return requestDistribution;
    }

    public void setRequestDistribution(String requestDistribution) {
        this.requestDistribution = requestDistribution;
    }

    public String getHotspotDataFraction() {
        return hotspotDataFraction;
    }

    public void setHotspotDataFraction(String hotspotDataFraction) {
        this.hotspotDataFraction = hotspotDataFraction;
    }

    public String getHotspotOpnFraction() {
        return hotspotOpnFraction;
    }

    public void setHotspotOpnFraction(String hotspotOpnFraction) {
        this.hotspotOpnFraction = hotspotOpnFraction;
    }

    public String getMinScanLength() {
        return minScanLength;
    }

    public void setMinScanLength(String minScanLength) {
        this.minScanLength = minScanLength;
    }

    public String getMaxScanLength() {
        return maxScanLength;
    }

    public void setMaxScanLength(String maxScanLength) {
        this.maxScanLength = maxScanLength;
    }

    public String getScanLengthDistribution() {
        return scanLengthDistribution;
    }

    public void setScanLengthDistribution(String scanLengthDistribution) {
        this.scanLengthDistribution = scanLengthDistribution;
    }

    public String getInsertOrder() {
        return insertOrder;
    }

    public void setInsertOrder(String insertOrder) {
        this.insertOrder = insertOrder;
    }

    public String getZeroPadding() {
        return zeroPadding;
    }

    public void setZeroPadding(String zeroPadding) {
        this.zeroPadding = zeroPadding;
    }

    public String getSeed() {
        return seed;
    }

    public void setSeed(String seed) {
        this.seed = seed;
    }

    public String getInsertionRetryLimit() {
        return insertionRetryLimit;
    }

    public void setInsertionRetryLimit(String insertionRetryLimit) {
        this.insertionRetryLimit = insertionRetryLimit;
    }

    public String getInsertionRetryInterval() {
        return insertionRetryInterval;
    }

    public void setInsertionRetryInterval(String insertionRetryInterval) {
        this.insertionRetryInterval = insertionRetryInterval;
    }
}
