package com.example.pipeline;

/**
 * The flame graph tests' {@code Pipeline} without any annotation and without tf-runtime: the
 * application the agent traces as it loads ({@code filter=}), untouched by
 * {@code tf:enhance-tests}; outside {@code org.tracingfacility}, whose classes the agent never
 * traces.
 */
public class PlainPipeline {
    public static void main(String[] args) throws InterruptedException {
        PlainPipeline pipeline = new PlainPipeline();
        for (int i = 0; i < 3; i++) {
            pipeline.run();
        }
        System.out.println("pipeline done");
    }

    public void run() throws InterruptedException {
        read();
        transform();
        write();
    }

    void read() throws InterruptedException {
        Thread.sleep(10);
    }

    void transform() throws InterruptedException {
        Thread.sleep(20);
        validate();
    }

    void validate() throws InterruptedException {
        Thread.sleep(40);
    }

    void write() throws InterruptedException {
        Thread.sleep(10);
    }
}
