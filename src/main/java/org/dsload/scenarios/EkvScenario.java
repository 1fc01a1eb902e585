package org.dsload.scenarios;

import java.util.Map;

import org.dsload.targets.EmbeddedRedis;

/** S3: user profiles in a Redis-protocol KV store, against an embedded redis-server. */
final class EkvScenario implements Scenario {

    @Override
    public String name() {
        return "ekv";
    }

    @Override
    public String plan() {
        return "ekv-profile-get.jmx";
    }

    @Override
    public Map<String, String> mainJobProperties() {
        return Map.of("threads", "10", "duration", "20", "profiles", "10000");
    }

    @Override
    public Target start() {
        EmbeddedRedis redis = EmbeddedRedis.start();
        return new Target() {
            @Override
            public Map<String, String> properties() {
                return Map.of("hosts", redis.address());
            }

            @Override
            public void close() {
                redis.close();
            }
        };
    }
}
