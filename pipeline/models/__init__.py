"""The records every stage passes along, one module per concept. Pure data: no I/O, and
nothing imported from the rest of the package (DESIGN: extract, parse, verify and diff
import only these and errors)."""
