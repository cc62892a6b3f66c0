package org.tracingfacility.agent;

import org.tracingfacility.core.DiskReplyCache;
import org.tracingfacility.core.EnhanceReport;
import org.tracingfacility.core.EnhanceRequest;
import org.tracingfacility.core.TfCore;

/**
 * The agent's one way to the native core: through the replies earlier runs on this machine
 * kept ({@link DiskReplyCache}), so that an application started again traces its classes
 * without loading the native library. {@code -Dtf.agent.cache=false} asks the core every time.
 */
final class CoreReplies {
    static final String CACHE_PROPERTY = "tf.agent.cache";

    /** Null when turned off or when the jar carries no core for this platform (the call says so). */
    private static final DiskReplyCache CACHE = cacheOrNull();

    private CoreReplies() {
    }

    static EnhanceReport enhance(EnhanceRequest request) {
        return CACHE == null ? TfCore.enhance(request) : TfCore.enhance(request, CACHE);
    }

    /** How many replies the cache gave in this JVM. */
    static long fromCache() {
        return CACHE == null ? 0 : CACHE.hits();
    }

    private static DiskReplyCache cacheOrNull() {
        if ("false".equalsIgnoreCase(System.getProperty(CACHE_PROPERTY))) {
            return null;
        }
        try {
            return DiskReplyCache.forPackagedCore();
        } catch (RuntimeException e) {
            return null; // the core call itself reports why there is no core
        }
    }
}
