package org.dsload.guidriver;

import java.beans.PropertyDescriptor;

import org.apache.jmeter.testbeans.BeanInfoSupport;

public class UnlabelledBeanBeanInfo extends BeanInfoSupport {

    public UnlabelledBeanBeanInfo() {
        super(UnlabelledBean.class);
        createPropertyGroup("serverGroup", new String[] {"hostsList"});
        PropertyDescriptor p = property("hostsList");
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, "");
    }
}
