package org.dsload.core;

import java.beans.PropertyDescriptor;

import org.apache.jmeter.testbeans.BeanInfoSupport;
import org.apache.jmeter.testbeans.TestBean;
import org.apache.jmeter.testbeans.gui.TypeEditor;

/**
 * Shorthands for the property kinds dsload elements use. Every field is text in the bean (see
 * {@link Fields}) and accepts {@code ${...}} expressions; flags and choices are editable combo
 * boxes so that an expression can stand in for the listed values.
 */
public abstract class DsloadBeanInfo extends BeanInfoSupport {

    protected DsloadBeanInfo(Class<? extends TestBean> beanClass) {
        super(beanClass);
    }

    protected PropertyDescriptor text(String name, String defaultValue) {
        PropertyDescriptor p = property(name);
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, defaultValue);
        return p;
    }

    protected PropertyDescriptor multiline(String name, String defaultValue) {
        PropertyDescriptor p = property(name, TypeEditor.TextAreaEditor);
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, defaultValue);
        return p;
    }

    protected PropertyDescriptor flag(String name, boolean defaultValue) {
        return choice(name, String.valueOf(defaultValue), "true", "false");
    }

    protected PropertyDescriptor choice(String name, String defaultValue, String... options) {
        PropertyDescriptor p = text(name, defaultValue);
        p.setValue(TAGS, options);
        p.setValue(NOT_OTHER, Boolean.FALSE);
        return p;
    }

    protected PropertyDescriptor password(String name) {
        PropertyDescriptor p = property(name, TypeEditor.PasswordEditor);
        p.setValue(NOT_UNDEFINED, Boolean.TRUE);
        p.setValue(DEFAULT, "");
        return p;
    }
}
