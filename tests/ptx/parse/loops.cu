// Nested loops, early exit, break/continue, a loop with a divergent return.
__global__ void loops(int *p, int n)
{
    int t = threadIdx.x;
    if (t >= n) return;
    int acc = 0;
    for (int i = 0; i < n; i++) {
        if (i == t) continue;
        for (int j = i; j < n; j++) {
            acc += p[j] * i;
            if (acc > 1000) break;
        }
        if (acc < -5) return;
    }
    while (acc > 10) acc /= 3;
    do { acc++; } while (acc & 1);
    p[t] = acc;
}
