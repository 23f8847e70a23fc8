module hashbox

go 1.19
