/* An empty program linked with every object of one layer of the machine and the layers below
 * it only (CMakeLists.txt, layer_check_*): a call from that layer up into a higher one is an
 * undefined symbol, and the build fails. */
int main(void)
{
	return 0;
}
