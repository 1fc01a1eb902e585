package org.dsload.zookeeper;

import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.jmeter.threads.JMeterContextService;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.dsload.core.BatchResult;
import org.dsload.core.Completion;
import org.dsload.core.Outcome;
import org.dsload.core.RequestsResult;
import org.dsload.core.Results;
import org.dsload.core.inflight.InFlightWindow;
import org.dsload.core.inflight.SamplerWindow;

/**
 * Requests in flight for a ZooKeeper Operation: the thread keeps up to In flight requests
 * outstanding on its session ({@link ZooKeeperTransport}), each timed on its own, and each sample returns
 * the answers that came in, one row per kind. This fills the requests and shows the rows of the
 * clone's {@link SamplerWindow}.
 */
final class ZooKeeperInFlight implements InFlightWindow.Preparer<ZooKeeperTransport.Request> {
    private final OperationSettings settings;
    private final ZooKeeperClient clients;
    private final CuratorFramework client;
    private final ZooKeeperSampler sampler;
    private final int thread = JMeterContextService.getContext().getThreadNum() + 1;

    private ZooKeeperInFlight(OperationSettings settings, ZooKeeperClient clients, CuratorFramework client,
            ZooKeeperSampler sampler) {
        this.settings = settings;
        this.clients = clients;
        this.client = client;
        this.sampler = sampler;
    }

    /** The window of the sampler's thread, made at a sample for these settings and this session. */
    static SamplerWindow<ZooKeeperTransport.Request> window(OperationSettings settings, ZooKeeperClient clients,
            CuratorFramework client, ZooKeeperSampler sampler) {
        return new SamplerWindow<>(settings.inFlight(),
                new ZooKeeperTransport(client, clients.settings(), clients.tally(), settings.limit()),
                new ZooKeeperInFlight(settings, clients, client, sampler), ZooKeeperInFlight::finish);
    }

    /** Fills a request on the sampler's thread: its path, data and watch, or why it cannot be sent. */
    @Override
    public void prepare(ZooKeeperTransport.Request request) {
        request.clear();
        long n = sampler.nextSeq();
        String znode = settings.path().expand(n, 0, thread);
        if (settings.op() == ZnodeOperation.MULTI) {
            MultiCall call = new MultiCall(settings, clients.settings());
            request.multi = call;
            try {
                call.build(client, n, thread, sampler.random());
            } catch (Exception e) {
                request.notSent(call.failed(e, false));
                return;
            }
        } else {
            byte[] bytes = settings.op() == ZnodeOperation.CREATE || settings.op() == ZnodeOperation.SET
                    ? settings.payload(n, thread, sampler.random()) : null;
            Watcher watcher = null;
            if (settings.leavesWatch()) {
                watcher = settings.watch().equals(OperationSettings.WATCH_ONCE) ? clients.onceWatcher()
                        : clients.keptWatch(client, settings.op(), znode);
            }
            request.znode = new ZnodeCall(settings, clients.settings(), znode, bytes, watcher);
            if (settings.op().writes()) {
                request.written = WriteStamps.fullPath(clients.settings().namespace, znode);
            }
        }
        String unreachable = clients.unreachable(client);
        if (unreachable != null) {
            request.notSent(Outcome.failed(KeeperException.Code.CONNECTIONLOSS.name(), unreachable, 0, 0));
        }
    }

    /** What a row shows of its first request, where it was kept: the request and, within the limit, the reply. */
    private static void finish(RequestsResult result) {
        List<Completion> row = result.requests();
        if (row.get(0).detail() instanceof ZooKeeperTransport.Shown shown) {
            result.setSamplerData(shown.request() + BatchResult.andMore(row, " ", "requests"));
            if (shown.reply() != null) {
                Results.text(result, shown.reply());
            }
        }
    }
}
