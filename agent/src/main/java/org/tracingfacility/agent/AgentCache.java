package org.tracingfacility.agent;

import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The agent's files kept on the machine between JVMs (the extracted tf-runtime, the start-up
 * archive): beside the native library's cache, and moved with it by {@code -Dtf.native.dir}.
 */
final class AgentCache {
    private AgentCache() {
    }

    static Path root() {
        String root = System.getProperty("tf.native.dir");
        if (root != null && !root.isBlank()) {
            return Paths.get(root, "agent");
        }
        return Paths.get(System.getProperty("user.home"), ".cache", "tracingfacility", "agent");
    }
}
