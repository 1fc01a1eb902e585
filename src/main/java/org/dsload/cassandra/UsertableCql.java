package org.dsload.cassandra;

import java.util.StringJoiner;

/**
 * The CQL of YCSB's cassandra-cql binding: a table of a text key {@code y_id} and text fields
 * field0 ... fieldN-1, read by key with LIMIT 1, scanned by token from a start key, updated one
 * field (or all), inserted whole. The same statements as that binding, so the server does the
 * same work for the same workload.
 */
final class UsertableCql {
    static final String KEY = "y_id";
    private final String keyspace;
    private final String table;
    private final int fields;
    /** Statement texts by field, index 0 for every field: built once, looked up per operation. */
    private final String[] reads;
    private final String[] scans;
    private final String[] updates;
    private final String insert;
    private final String delete;

    /** @param keyspace empty to leave table names unqualified (the session's keyspace applies) */
    UsertableCql(String keyspace, String table, int fields) {
        this.keyspace = keyspace;
        this.table = keyspace.isEmpty() ? table : keyspace + "." + table;
        this.fields = fields;
        reads = new String[fields + 1];
        scans = new String[fields + 1];
        updates = new String[fields + 1];
        for (int f = -1; f < fields; f++) {
            reads[f + 1] = readText(f);
            scans[f + 1] = scanText(f);
            updates[f + 1] = updateText(f);
        }
        insert = insertText();
        delete = "DELETE FROM " + this.table + " WHERE " + KEY + " = ?";
    }

    static String field(int i) {
        return "field" + i;
    }

    String createKeyspace(String replication) {
        return "CREATE KEYSPACE IF NOT EXISTS " + keyspace + " WITH replication = " + replication;
    }

    String createTable() {
        StringBuilder cql = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(table).append(" (")
                .append(KEY).append(" varchar PRIMARY KEY");
        for (int i = 0; i < fields; i++) {
            cql.append(", ").append(field(i)).append(" varchar");
        }
        return cql.append(')').toString();
    }

    String insert() {
        return insert;
    }

    String delete() {
        return delete;
    }

    String keyspace() {
        return keyspace;
    }

    /** The table's own name, without the keyspace. */
    String tableName() {
        int dot = table.indexOf('.');
        return dot < 0 ? table : table.substring(dot + 1);
    }

    /** @param field -1 for every field */
    String read(int field) {
        return reads[field + 1];
    }

    /** @param field -1 for every field */
    String scan(int field) {
        return scans[field + 1];
    }

    /** @param field -1 for every field */
    String update(int field) {
        return updates[field + 1];
    }

    private String insertText() {
        StringJoiner columns = new StringJoiner(", ", "(", ")");
        StringJoiner markers = new StringJoiner(", ", "(", ")");
        columns.add(KEY);
        markers.add("?");
        for (int i = 0; i < fields; i++) {
            columns.add(field(i));
            markers.add("?");
        }
        return "INSERT INTO " + table + " " + columns + " VALUES " + markers;
    }

    private String readText(int field) {
        return "SELECT " + (field < 0 ? "*" : field(field)) + " FROM " + table + " WHERE " + KEY + " = ? LIMIT 1";
    }

    private String scanText(int field) {
        return "SELECT " + (field < 0 ? "*" : field(field)) + " FROM " + table + " WHERE token(" + KEY + ") >= token(?) LIMIT ?";
    }

    private String updateText(int field) {
        StringJoiner set = new StringJoiner(", ");
        if (field < 0) {
            for (int i = 0; i < fields; i++) {
                set.add(field(i) + " = ?");
            }
        } else {
            set.add(field(field) + " = ?");
        }
        return "UPDATE " + table + " SET " + set + " WHERE " + KEY + " = ?";
    }

    boolean hasKeyspace() {
        return !keyspace.isEmpty();
    }
}
