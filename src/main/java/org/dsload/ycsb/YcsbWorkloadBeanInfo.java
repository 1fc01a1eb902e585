package org.dsload.ycsb;

import org.apache.jmeter.testbeans.TestBean;
import org.dsload.core.DsloadBeanInfo;

public class YcsbWorkloadBeanInfo extends DsloadBeanInfo {

    public YcsbWorkloadBeanInfo() {
        this(YcsbWorkload.class);
    }

    /** The workload's fields, for a bean class that has them (and may add its own). */
    protected YcsbWorkloadBeanInfo(Class<? extends TestBean> beanClass) {
        super(beanClass);
        createPropertyGroup("variable", new String[] {"variableName"});
        createPropertyGroup("records", new String[] {"workload", "table", "recordCount", "fieldCount", "insertStart",
            "insertCount", "operationCount", "fieldLength", "minFieldLength", "fieldLengthDistribution", "insertOrder",
            "zeroPadding", "insertionRetryLimit", "insertionRetryInterval"});
        createPropertyGroup("operations", new String[] {"readProportion", "updateProportion", "insertProportion",
            "scanProportion", "readModifyWriteProportion", "readAllFields", "writeAllFields", "minScanLength",
            "maxScanLength", "scanLengthDistribution"});
        createPropertyGroup("keys", new String[] {"requestDistribution", "hotspotDataFraction", "hotspotOpnFraction",
            "seed"});

        text("variableName", "ycsb");
        text("table", "usertable");
        text("fieldCount", "10");
        choice("workload", "a", "a", "b", "c", "d", "e", "f");
        text("recordCount", "1000");
        text("insertStart", "0");
        text("insertCount", "");
        text("operationCount", "0");
        text("fieldLength", "100");
        text("minFieldLength", "1");
        choice("fieldLengthDistribution", "constant", WorkloadSpec.LENGTH_DISTRIBUTIONS);
        choice("insertOrder", "hashed", "hashed", "ordered");
        text("zeroPadding", "1");
        text("insertionRetryLimit", "0");
        text("insertionRetryInterval", "3");
        text("readProportion", "");
        text("updateProportion", "");
        text("insertProportion", "");
        text("scanProportion", "");
        text("readModifyWriteProportion", "");
        flag("readAllFields", true);
        flag("writeAllFields", false);
        text("minScanLength", "1");
        text("maxScanLength", "");
        choice("scanLengthDistribution", "uniform", "uniform", "zipfian");
        String[] distributions = new String[WorkloadSpec.REQUEST_DISTRIBUTIONS.length + 1];
        distributions[0] = "";
        System.arraycopy(WorkloadSpec.REQUEST_DISTRIBUTIONS, 0, distributions, 1, WorkloadSpec.REQUEST_DISTRIBUTIONS.length);
        choice("requestDistribution", "", distributions);
        text("hotspotDataFraction", "0.2");
        text("hotspotOpnFraction", "0.8");
        text("seed", "1");
    }
}
