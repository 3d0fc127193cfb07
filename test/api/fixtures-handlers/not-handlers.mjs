// Not a handlers module: --handlers refuses it.
export default { hello: 'world' };
