package org.dsload.cassandra;

import java.util.Collections;
import java.util.Enumeration;
import java.util.ResourceBundle;
import java.util.Set;
import java.util.TreeSet;

import org.dsload.ycsb.YcsbWorkload;

/**
 * The labels and tooltips of the YCSB Workload of older plans ({@link CassandraYcsbWorkload}): the
 * workload's, then the Cassandra settings' for the fields it kept, and a group title of its own.
 * A class rather than a properties file, so that no text is written twice.
 */
public final class CassandraYcsbWorkloadResources extends ResourceBundle {
    private static final String GROUP = "cassandra.displayName";
    private final ResourceBundle workload = ResourceBundle.getBundle(YcsbWorkload.class.getName() + "Resources");
    private final ResourceBundle settings = ResourceBundle.getBundle(CassandraYcsbSettings.class.getName() + "Resources");

    @Override
    protected Object handleGetObject(String key) {
        if (key.equals(GROUP)) {
            return "Cassandra binding (older plans: new ones put these into a dsload YCSB Cassandra Settings)";
        }
        if (workload.containsKey(key)) {
            return workload.getObject(key);
        }
        return settings.containsKey(key) ? settings.getObject(key) : null;
    }

    @Override
    public Enumeration<String> getKeys() {
        Set<String> keys = new TreeSet<>(workload.keySet());
        keys.addAll(settings.keySet());
        keys.add(GROUP);
        return Collections.enumeration(keys);
    }
}
