package org.dsload.chaos;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * An applied fault as it is kept on disk until it is reverted: who applied it, and everything its
 * driver needs to undo it without the plan (the rendered revert command, the proxy and route, the
 * process to signal, the file to delete ...). {@code dsload revert} rebuilds the revert from this
 * alone after the process that applied the fault died.
 */
public final class FaultRecord {
    public static final String ID = "id";
    public static final String LABEL = "label";
    public static final String KIND = "kind";
    public static final String TARGET = "target";
    public static final String DRIVER = "driver";
    public static final String APPLIED_AT = "applied_at";
    public static final String APPLIED_BY = "applied_by";

    private final Map<String, String> fields = new LinkedHashMap<>();

    public FaultRecord(String id, String label, String kind, String target, String driver) {
        fields.put(ID, id);
        fields.put(LABEL, label);
        fields.put(KIND, kind);
        fields.put(TARGET, target);
        fields.put(DRIVER, driver);
        fields.put(APPLIED_AT, Long.toString(System.currentTimeMillis()));
        fields.put(APPLIED_BY, "pid " + ProcessHandle.current().pid());
    }

    private FaultRecord() {
    }

    public FaultRecord put(String key, String value) {
        if (value != null) {
            fields.put(key, value);
        }
        return this;
    }

    public String get(String key) {
        return fields.get(key);
    }

    public String require(String key) {
        String v = fields.get(key);
        if (v == null) {
            throw new IllegalStateException("fault record " + id() + " lacks '" + key + "'");
        }
        return v;
    }

    public String id() {
        return fields.get(ID);
    }

    public String label() {
        return fields.get(LABEL);
    }

    public String driver() {
        return fields.get(DRIVER);
    }

    public Map<String, String> fields() {
        return Map.copyOf(fields);
    }

    /** Writes the record atomically (a reader never sees half a file). */
    public void write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Properties p = new Properties();
        p.putAll(new TreeMap<>(fields));
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            p.store(out, "dsload applied fault: 'dsload revert' undoes it");
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    public static FaultRecord read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        }
        FaultRecord r = new FaultRecord();
        p.stringPropertyNames().stream().sorted().forEach(k -> r.fields.put(k, p.getProperty(k)));
        if (r.id() == null || r.driver() == null) {
            throw new IOException(file + " is not a dsload fault record (no id or driver)");
        }
        return r;
    }
}
