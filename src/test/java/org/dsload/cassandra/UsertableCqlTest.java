package org.dsload.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class UsertableCqlTest {
    private final UsertableCql cql = new UsertableCql("ycsb", "usertable", 3);

    @Test
    void theStatementsAreThoseOfYcsbsCassandraBinding() {
        assertEquals("CREATE TABLE IF NOT EXISTS ycsb.usertable (y_id varchar PRIMARY KEY, field0 varchar, "
                + "field1 varchar, field2 varchar)", cql.createTable());
        assertEquals("INSERT INTO ycsb.usertable (y_id, field0, field1, field2) VALUES (?, ?, ?, ?)", cql.insert());
        assertEquals("SELECT * FROM ycsb.usertable WHERE y_id = ? LIMIT 1", cql.read(-1));
        assertEquals("SELECT field2 FROM ycsb.usertable WHERE y_id = ? LIMIT 1", cql.read(2));
        assertEquals("SELECT * FROM ycsb.usertable WHERE token(y_id) >= token(?) LIMIT ?", cql.scan(-1));
        assertEquals("UPDATE ycsb.usertable SET field1 = ? WHERE y_id = ?", cql.update(1));
        assertEquals("UPDATE ycsb.usertable SET field0 = ?, field1 = ?, field2 = ? WHERE y_id = ?", cql.update(-1));
    }

    @Test
    void withoutAKeyspaceTheTableIsUnqualified() {
        assertEquals("SELECT * FROM usertable WHERE y_id = ? LIMIT 1", new UsertableCql("", "usertable", 1).read(-1));
    }
}
