/** The hello world whose start-up the agent is timed on: one method, traced by the filter. */
public class Hello {
    static int next(int x) {
        return x + 1;
    }

    public static void main(String[] args) {
        int n = 0;
        for (int i = 0; i < 10; i++) {
            n = next(n);
        }
        System.out.println("hello " + n);
    }
}
