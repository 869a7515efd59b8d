namespace Bad;

public static class Orders
{
    public static void Wait() => Thread.Sleep(100);
}
