package org.dsload.cassandra;

import java.util.Locale;
import java.util.Map;

import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;

/** CQL type names as people write them ({@code int}, {@code list<text>}, {@code map<text, int>}). */
final class CqlTypes {
    private static final Map<String, DataType> SIMPLE = Map.ofEntries(
            Map.entry("ascii", DataTypes.ASCII), Map.entry("text", DataTypes.TEXT), Map.entry("varchar", DataTypes.TEXT),
            Map.entry("int", DataTypes.INT), Map.entry("bigint", DataTypes.BIGINT), Map.entry("counter", DataTypes.COUNTER),
            Map.entry("smallint", DataTypes.SMALLINT), Map.entry("tinyint", DataTypes.TINYINT),
            Map.entry("varint", DataTypes.VARINT), Map.entry("decimal", DataTypes.DECIMAL),
            Map.entry("float", DataTypes.FLOAT), Map.entry("double", DataTypes.DOUBLE),
            Map.entry("boolean", DataTypes.BOOLEAN), Map.entry("uuid", DataTypes.UUID),
            Map.entry("timeuuid", DataTypes.TIMEUUID), Map.entry("timestamp", DataTypes.TIMESTAMP),
            Map.entry("date", DataTypes.DATE), Map.entry("time", DataTypes.TIME), Map.entry("blob", DataTypes.BLOB),
            Map.entry("inet", DataTypes.INET), Map.entry("duration", DataTypes.DURATION));

    static final String KNOWN = "ascii, text, varchar, int, bigint, counter, smallint, tinyint, varint, decimal, "
            + "float, double, boolean, uuid, timeuuid, timestamp, date, time, blob, inet, duration, "
            + "list<T>, set<T>, map<K, V>, frozen<...>";

    private CqlTypes() {
    }

    /** @throws IllegalArgumentException naming the type that is not known */
    static DataType parse(String text) {
        String name = text.replace(" ", "").toLowerCase(Locale.ROOT);
        DataType simple = SIMPLE.get(name);
        if (simple != null) {
            return simple;
        }
        if (name.startsWith("frozen<") && name.endsWith(">")) {
            return frozen(parse(inner(name, "frozen")));
        }
        if (name.startsWith("list<") && name.endsWith(">")) {
            return DataTypes.listOf(parse(inner(name, "list")));
        }
        if (name.startsWith("set<") && name.endsWith(">")) {
            return DataTypes.setOf(parse(inner(name, "set")));
        }
        if (name.startsWith("map<") && name.endsWith(">")) {
            String inner = inner(name, "map");
            int comma = topLevelComma(inner);
            if (comma < 0) {
                throw new IllegalArgumentException("map needs a key and a value type, as in map<text, int>");
            }
            return DataTypes.mapOf(parse(inner.substring(0, comma)), parse(inner.substring(comma + 1)));
        }
        throw new IllegalArgumentException("unknown CQL type '" + text + "' (known: " + KNOWN + ")");
    }

    private static DataType frozen(DataType type) {
        if (type instanceof com.datastax.oss.driver.api.core.type.ListType list) {
            return DataTypes.frozenListOf(list.getElementType());
        }
        if (type instanceof com.datastax.oss.driver.api.core.type.SetType set) {
            return DataTypes.frozenSetOf(set.getElementType());
        }
        if (type instanceof com.datastax.oss.driver.api.core.type.MapType map) {
            return DataTypes.frozenMapOf(map.getKeyType(), map.getValueType());
        }
        return type;
    }

    private static String inner(String name, String head) {
        return name.substring(head.length() + 1, name.length() - 1);
    }

    private static int topLevelComma(String text) {
        int depth = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '<') {
                depth++;
            } else if (c == '>') {
                depth--;
            } else if (c == ',' && depth == 0) {
                return i;
            }
        }
        return -1;
    }
}
