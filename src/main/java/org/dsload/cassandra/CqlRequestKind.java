package org.dsload.cassandra;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a CQL statement counts as on the coordinator that runs it, the way Cassandra's per-table
 * coordinator metrics count (measured on Cassandra 5.0): a SELECT is one read (each page is a
 * request of its own); an INSERT, UPDATE or DELETE one write; a conditional one (IF ...) one read
 * and no write; a batch one write per table it changes (one read when conditional). Tables of the
 * system keyspaces count as nothing: the driver reads them for itself.
 */
final class CqlRequestKind {
    static final Set<String> SYSTEM_KEYSPACES = Set.of("system", "system_schema", "system_auth", "system_distributed",
            "system_traces", "system_views", "system_virtual_schema", "system_cluster_metadata");
    /** Statements parsed once; a plan with endlessly varying text stops being cached past this. */
    private static final int CACHE_LIMIT = 10_000;
    private static final String IDENT = "(?:\"(?:[^\"]|\"\")+\"|[A-Za-z0-9_]+)";
    private static final String TABLE = "(" + IDENT + "(?:\\s*\\.\\s*" + IDENT + ")?)";
    private static final Pattern SELECT = Pattern.compile("^SELECT\\b.*?\\bFROM\\s+" + TABLE,
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern WRITE = Pattern.compile(
            "\\b(?:INSERT\\s+INTO|UPDATE|DELETE\\b.*?\\bFROM)\\s+" + TABLE, Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern BATCH = Pattern.compile("^BEGIN\\s+(?:UNLOGGED\\s+|COUNTER\\s+|LOGGED\\s+)?BATCH\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern CONDITION = Pattern.compile("\\bIF\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern LITERALS = Pattern.compile(
            "'(?:[^']|'')*'|\\$\\$.*?\\$\\$|--[^\\n]*|//[^\\n]*|/\\*.*?\\*/", Pattern.DOTALL);
    private static final Map<String, Parsed> CACHE = new ConcurrentHashMap<>();

    enum Kind {
        READ, WRITE, CONDITIONAL, NONE
    }

    /**
     * One statement's text understood: its kind and the tables it names ({@code ks.table}, or a
     * bare table name that the statement's keyspace qualifies).
     */
    record Parsed(Kind kind, Set<String> tables) {
        static final Parsed NONE = new Parsed(Kind.NONE, Set.of());
    }

    private CqlRequestKind() {
    }

    static Parsed parse(String cql) {
        Parsed cached = CACHE.get(cql);
        if (cached != null) {
            return cached;
        }
        Parsed parsed = parse0(cql);
        if (CACHE.size() < CACHE_LIMIT) {
            CACHE.put(cql, parsed);
        }
        return parsed;
    }

    private static Parsed parse0(String cql) {
        String text = LITERALS.matcher(cql).replaceAll(" '' ").strip();
        Matcher select = SELECT.matcher(text);
        if (select.find()) {
            return new Parsed(Kind.READ, Set.of(normalise(select.group(1))));
        }
        boolean batch = BATCH.matcher(text).find();
        Matcher write = WRITE.matcher(text);
        Set<String> tables = new LinkedHashSet<>();
        while (write.find()) {
            if (!batch && write.start() > 0) {
                break; // a single statement names its table first; later matches are values
            }
            tables.add(normalise(write.group(1)));
        }
        if (tables.isEmpty()) {
            return Parsed.NONE;
        }
        return new Parsed(CONDITION.matcher(text).find() ? Kind.CONDITIONAL : Kind.WRITE, tables);
    }

    /** {@code Ks."My Table"} as {@code ks.My Table}: unquoted names are case-insensitive. */
    private static String normalise(String name) {
        StringBuilder out = new StringBuilder();
        for (String part : name.split("\\s*\\.\\s*(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)")) {
            if (out.length() > 0) {
                out.append('.');
            }
            out.append(part.startsWith("\"") ? part.substring(1, part.length() - 1).replace("\"\"", "\"")
                    : part.toLowerCase(Locale.ROOT));
        }
        return out.toString();
    }

    /** The keyspace of a table name, or {@code keyspace} when the name has none. */
    static String keyspaceOf(String table, String keyspace) {
        int dot = table.indexOf('.');
        return dot >= 0 ? table.substring(0, dot) : keyspace;
    }

    static boolean isSystem(String keyspace) {
        return keyspace != null && SYSTEM_KEYSPACES.contains(keyspace);
    }
}
