namespace Good;

public static class Pricing
{
    public static decimal Round(decimal price) => Math.Round(price, 2);
}
