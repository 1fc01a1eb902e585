package org.dsload.ycsb;

/** The operations of YCSB's CoreWorkload, named as YCSB reports them. */
public enum Operation {
    READ("READ"), UPDATE("UPDATE"), INSERT("INSERT"), SCAN("SCAN"), READ_MODIFY_WRITE("READ-MODIFY-WRITE");

    private final String label;

    Operation(String label) {
        this.label = label;
    }

    /** The sample label: results and summaries are grouped by operation. */
    public String label() {
        return label;
    }
}
