package org.dsload.redis;

import org.dsload.core.ConfigException;
import org.dsload.core.SharedClients;
import org.dsload.ycsb.WorkloadRun;
import org.dsload.ycsb.YcsbBinding;
import org.dsload.ycsb.YcsbBindingProvider;

/** The YCSB binding {@code redis}: a dsload Redis Connection's client, in YCSB's redis layout ({@link RedisYcsbBinding}). */
public final class RedisYcsbBindingProvider implements YcsbBindingProvider {

    @Override
    public String name() {
        return "redis";
    }

    @Override
    public Object client(String connection) {
        return SharedClients.lookup(connection, RedisClient.class, "dsload Redis Connection");
    }

    @Override
    public YcsbBinding bind(Object client, String settings, WorkloadRun run) {
        if (!settings.isEmpty()) {
            throw new ConfigException("the redis binding has no settings of its own: leave Binding settings empty, "
                    + "not '" + settings + "'");
        }
        run.bindingUsed(name(), "");
        return new RedisYcsbBinding((RedisClient) client, run.workload().spec().fieldCount());
    }
}
