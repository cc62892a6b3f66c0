package org.tracingfacility.flamegraph;

/**
 * An application that knows nothing of TF, enhanced by {@code tf:enhance-tests}: run reads,
 * then transforms (which validates along the way), then writes; the sleeps make each
 * method's share of the time known in advance.
 */
@Work
public class Pipeline {
    public static void main(String[] args) throws InterruptedException {
        Pipeline pipeline = new Pipeline();
        for (int i = 0; i < 3; i++) {
            pipeline.run();
        }
        System.out.println("pipeline done");
    }

    @Work
    public void run() throws InterruptedException {
        read();
        transform();
        write();
    }

    @Work
    void read() throws InterruptedException {
        Thread.sleep(10);
    }

    @Work
    void transform() throws InterruptedException {
        Thread.sleep(20);
        validate();
    }

    @Work
    void validate() throws InterruptedException {
        Thread.sleep(40);
    }

    @Work
    void write() throws InterruptedException {
        Thread.sleep(10);
    }
}
